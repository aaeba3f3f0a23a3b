/**
 * What the fix prompt shows of the target's module besides the function: its imports, its
 * module-level names and the signatures of its functions, so a rewrite can use what is
 * already in scope instead of importing it again.
 */
import type { FunctionInfo } from "../lang/types.js";
import { codeKey } from "./reapply.js";

const MAX_LINES = 80;
const MAX_WIDTH = 160;

export function moduleContext(source: string, file: string, functions: FunctionInfo[]): string {
  const lines = source.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(import|from)\s/.test(line)) {
      // A parenthesised import runs until its parenthesis closes.
      let j = i;
      while (
        line.includes("(") &&
        !lines
          .slice(i, j + 1)
          .join(" ")
          .includes(")") &&
        j < i + 20
      )
        j++;
      out.push(
        lines
          .slice(i, j + 1)
          .join(" ")
          .replace(/\s+/g, " "),
      );
      i = j;
    } else if (/^[A-Za-z_]\w*\s*(:[^=]*)?=(?!=)/.test(line) || /^class\s/.test(line)) {
      out.push(cap(line));
    }
  }
  for (const fn of functions.filter((f) => f.file === file).sort((a, b) => a.startLine - b.startLine)) {
    out.push(`${fn.qualname}: ${signature(lines, fn)}`);
  }
  const shown = out.slice(0, MAX_LINES);
  if (out.length > MAX_LINES) shown.push(`... (${out.length - MAX_LINES} more)`);
  return shown.join("\n") || "(nothing at module level)";
}

/** A function's header, from `def` to its colon, on one line. */
function signature(lines: string[], fn: FunctionInfo): string {
  let start = fn.startLine - 1;
  while (start < fn.endLine - 1 && /^\s*@/.test(lines[start]!)) start++;
  const header: string[] = [];
  for (let i = start; i < Math.min(fn.endLine, start + 10); i++) {
    header.push(lines[i]!.trim());
    if (codeKey(lines[i]!).endsWith(":")) break;
  }
  return cap(header.join(" "));
}

function cap(text: string): string {
  return text.length > MAX_WIDTH ? `${text.slice(0, MAX_WIDTH)} ...` : text;
}
