/** Python source read as text: its logical lines, enough structure for prompts without an interpreter. */

/** A logical line: physical lines joined by open brackets, backslashes or multi-line strings. */
export interface LogicalLine {
  /** 1-based line numbers, inclusive. */
  start: number;
  end: number;
  indent: number;
  /** First physical line, stripped. */
  head: string;
}

/** Splits lines[from..to] (1-based, inclusive) into logical lines, skipping blank and comment-only lines. */
export function logicalLines(lines: string[], from: number, to: number): LogicalLine[] {
  const result: LogicalLine[] = [];
  let depth = 0;
  let inString: string | null = null;
  let current: LogicalLine | null = null;
  for (let n = from; n <= Math.min(to, lines.length); n++) {
    const text = lines[n - 1] ?? "";
    if (current === null) {
      const stripped = text.trim();
      if (stripped === "" || stripped.startsWith("#")) continue;
      current = { start: n, end: n, indent: text.length - text.trimStart().length, head: stripped };
    }
    current.end = n;
    let continued = false;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] ?? "";
      if (inString !== null) {
        if (ch === "\\") i++;
        else if (text.startsWith(inString, i)) {
          i += inString.length - 1;
          inString = null;
        }
        continue;
      }
      if (ch === "#") break;
      if (ch === '"' || ch === "'") {
        inString = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        i += inString.length - 1;
      } else if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
      else if (ch === "\\" && i === text.length - 1) continued = true;
    }
    // An unterminated single-quoted string ends with its line (Python would reject it anyway).
    if (inString !== null && inString.length === 1) inString = null;
    if (depth === 0 && inString === null && !continued) {
      result.push(current);
      current = null;
    }
  }
  if (current !== null) result.push(current);
  return result;
}
