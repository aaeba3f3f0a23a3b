import type { FunctionInfo } from "../lang/types.js";
import { logicalLines } from "../lang/python/source-lines.js";

export { logicalLines, type LogicalLine } from "../lang/python/source-lines.js";

/** Text-level reading of Python source: enough structure for prompts, no interpreter needed. */

/** `pkg/sub/mod.py` → `pkg.sub.mod`; a package's `__init__.py` is the package itself. */
export function moduleName(file: string): string {
  const parts = file.replace(/\\/g, "/").replace(/\.py$/, "").split("/");
  if (parts.length > 1 && parts[parts.length - 1] === "__init__") parts.pop();
  return parts.join(".");
}

/** `module.Class.method`: the name models are shown and asked to give back. */
export function qualifiedName(f: Pick<FunctionInfo, "file" | "qualname">): string {
  return `${moduleName(f.file)}.${f.qualname}`;
}

/** The `def` line of a function (FunctionInfo may start at its first decorator). */
function defLine(lines: string[], f: FunctionInfo): number {
  for (let n = f.startLine; n <= f.endLine; n++) {
    if (/^\s*(async\s+)?def\s/.test(lines[n - 1] ?? "")) return n;
  }
  return f.startLine;
}

/** The function's header up to its colon, on one line: `def add(self, a, b)`. */
export function signature(lines: string[], f: FunctionInfo): string {
  const start = defLine(lines, f);
  const header = logicalLines(lines, start, f.endLine)[0];
  if (!header) return `def ${f.qualname.split(".").pop() ?? f.qualname}(...)`;
  const text = lines
    .slice(header.start - 1, header.end)
    .map((l) => l.trim())
    .join(" ")
    .replace(/\s+/g, " ")
    .replace(/\(\s+/g, "(")
    .replace(/,?\s*\)/, ")");
  return text.replace(/^async\s+/, "async ").replace(/\s*:\s*(#.*)?$/, "");
}

/** `module.Class.method(self, a, b)`: what the tools list and accept. */
export function displaySignature(lines: string[], f: FunctionInfo): string {
  const params = /\((.*)\)/.exec(signature(lines, f))?.[1] ?? "";
  return `${qualifiedName(f)}(${params})`;
}

/** The function's source with line numbers, capped at maxLines. */
export function numberedSource(lines: string[], f: FunctionInfo, maxLines = 200): string {
  const out: string[] = [];
  const last = Math.min(f.endLine, f.startLine + maxLines - 1, lines.length);
  for (let n = f.startLine; n <= last; n++) out.push(`${String(n).padStart(4)} ${lines[n - 1] ?? ""}`);
  if (last < f.endLine) out.push(`     ... (${f.endLine - last} more lines)`);
  return out.join("\n");
}

/** The docstring and the comments of a function, including those right above its definition. */
export function docAndComments(lines: string[], f: FunctionInfo): string {
  const parts: string[] = [];
  const above: string[] = [];
  for (let n = f.startLine - 1; n >= 1; n--) {
    const t = (lines[n - 1] ?? "").trim();
    if (!t.startsWith("#")) break;
    above.unshift(t);
  }
  if (above.length > 0) parts.push(above.join("\n"));
  const body = logicalLines(lines, defLine(lines, f), f.endLine);
  const first = body[1];
  if (first && /^[rRuUbB]?("""|'''|"|')/.test(first.head)) {
    parts.push(
      lines
        .slice(first.start - 1, first.end)
        .map((l) => l.trim())
        .join("\n"),
    );
  }
  for (let n = defLine(lines, f) + 1; n <= f.endLine; n++) {
    if (first && n >= first.start && n <= first.end) continue;
    const hash = commentStart(lines[n - 1] ?? "");
    if (hash !== null) parts.push(`${n}: ${(lines[n - 1] ?? "").slice(hash).trim()}`);
  }
  return parts.join("\n");
}

/** Index of a `#` that starts a comment (not inside a string), or null. */
function commentStart(text: string): number | null {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== null) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "#") return i;
  }
  return null;
}

export const ERROR_MARK = "# error occurred here";

const ASSERTION = /^(assert\b|self\.assert\w*\s*\(|self\.fail\s*\()/;

/**
 * AutoFL's test snippet: the test function up to the outermost statement that
 * holds the failing line, that line marked with a comment, earlier assertions
 * removed. Without a failing line inside the test, the whole test is shown.
 */
export function cutTestSnippet(lines: string[], test: FunctionInfo, failingLine?: number): string {
  const start = defLine(lines, test);
  const logical = logicalLines(lines, start, test.endLine);
  const header = logical[0];
  const bodyIndent = logical[1]?.indent;
  if (!header || bodyIndent === undefined) return lines.slice(test.startLine - 1, test.endLine).join("\n");
  const inside = failingLine !== undefined && failingLine > header.end && failingLine <= test.endLine;

  // Outermost statements of the body, each with everything nested under it.
  const statements: { start: number; end: number; head: string }[] = [];
  for (const l of logical.slice(1)) {
    const last = statements[statements.length - 1];
    if (l.indent <= bodyIndent || !last) statements.push({ start: l.start, end: l.end, head: l.head });
    else last.end = l.end;
  }

  const out = lines.slice(test.startLine - 1, header.end);
  for (const s of statements) {
    const failing = inside && failingLine >= s.start && failingLine <= s.end;
    if (!failing && inside && ASSERTION.test(s.head)) continue;
    for (let n = s.start; n <= s.end; n++) {
      const text = lines[n - 1] ?? "";
      out.push(failing && n === failingLine ? `${text}  ${ERROR_MARK}` : text);
    }
    if (failing) break;
  }
  return out.join("\n");
}
