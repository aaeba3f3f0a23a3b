/**
 * What the model's prompts say for Python (the port's PromptWords): the module summary the fix
 * prompt shows beside the function, the import path a test uses, and the constructors a claim
 * test builds objects with. Text only: the source is read, never run.
 */
import type { FunctionInfo, PromptWords } from "../types.js";
import { logicalLines, type LogicalLine } from "./source-lines.js";

/** Lines of a module summary at most, and the physical lines one statement keeps. */
const MAX_LINES = 120;
const MAX_STATEMENT_LINES = 8;
const MAX_WIDTH = 160;

const DEF = /^\s*(async\s+)?def\s/;
const DOCSTRING = /^[rRuUbBfF]{0,2}("""|'''|"|')/;

/** `src/pkg/mod.py` → `src.pkg.mod`; a package's `__init__.py` is the package itself. */
function dotted(file: string): string[] {
  const parts = file.replace(/\\/g, "/").replace(/\.py$/, "").split("/");
  if (parts.length > 1 && parts.at(-1) === "__init__") parts.pop();
  return parts;
}

/**
 * The module name a test imports: the longest tail of the file's dotted path that the test's
 * own imports name, else the path without a leading `src` folder (a src layout's packages
 * are installed or put on the path from inside it).
 */
export function pythonImportName(file: string, testSource?: string): string {
  const parts = dotted(file);
  const imported = new Set<string>();
  for (const m of (testSource ?? "").matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm)) {
    imported.add((m[1] ?? m[2])!);
  }
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join(".");
    if (imported.has(tail)) return tail;
  }
  return (parts[0] === "src" && parts.length > 1 ? parts.slice(1) : parts).join(".");
}

function cap(text: string): string {
  return text.length > MAX_WIDTH ? `${text.slice(0, MAX_WIDTH)} ...` : text;
}

/** A logical line's physical lines joined into one, spacing collapsed (an import, a header). */
function joined(lines: string[], l: LogicalLine): string {
  return lines
    .slice(l.start - 1, l.end)
    .map((t) => t.trim())
    .join(" ")
    .replace(/\s+/g, " ")
    .replace(/\(\s+/g, "(")
    .replace(/,?\s*\)/g, ")");
}

/** The `def` line of each function of `file`, with the last line of its header. */
function headers(lines: string[], file: string, functions: FunctionInfo[]) {
  const out = new Map<number, { fn: FunctionInfo; headerEnd: number }>();
  for (const fn of functions.filter((f) => f.file === file)) {
    let def = fn.startLine;
    while (def < fn.endLine && !DEF.test(lines[def - 1] ?? "")) def++;
    const header = logicalLines(lines, def, fn.endLine)[0];
    out.set(def, { fn, headerEnd: header?.end ?? def });
  }
  return out;
}

/**
 * The module as a stub: imports, module-level statements whole (up to 8 lines each), classes
 * with their decorators and fields, every function's decorators and header with `...` for its
 * body; docstrings and comments left out.
 */
export function pythonModuleSummary(source: string, file: string, functions: FunctionInfo[]): string {
  const lines = source.split("\n");
  const defs = headers(lines, file, functions);
  const hidden: [number, number][] = [...defs.values()].map(({ fn, headerEnd }) => [
    headerEnd + 1,
    fn.endLine,
  ]);
  const isHidden = (n: number) => hidden.some(([a, b]) => n >= a && n <= b);
  const out: string[] = [];
  for (const l of logicalLines(lines, 1, lines.length)) {
    if (isHidden(l.start) || DOCSTRING.test(l.head)) continue;
    const pad = " ".repeat(l.indent);
    if (defs.has(l.start) || /^(import|from)\s/.test(l.head)) {
      out.push(cap(pad + joined(lines, l) + (defs.has(l.start) ? " ..." : "")));
      continue;
    }
    const last = Math.min(l.end, l.start + MAX_STATEMENT_LINES - 1);
    for (let n = l.start; n <= last; n++) out.push(cap(lines[n - 1]!.trimEnd()));
    if (last < l.end) out.push(`${pad}    ... (${l.end - last} more lines)`);
  }
  const shown = out.slice(0, MAX_LINES);
  if (out.length > MAX_LINES) shown.push(`... (${out.length - MAX_LINES} more lines)`);
  return shown.join("\n") || "(nothing at module level)";
}

/** The parameters of a header, `self`/`cls` left out: `(self, a: int = 1) -> X:` → `a: int = 1`. */
function parameters(header: string): string {
  const open = header.indexOf("(");
  let depth = 0;
  for (let i = open; i >= 0 && i < header.length; i++) {
    if ("([{".includes(header[i]!)) depth++;
    else if (")]}".includes(header[i]!) && --depth === 0) {
      return header
        .slice(open + 1, i)
        .replace(/^\s*(self|cls)\s*(,\s*|$)/, "")
        .trim();
    }
  }
  return "...";
}

/**
 * Each class's ways to build one: `Class(params of __init__)`, or a dataclass's fields in order,
 * and its class and static methods (`Class.parse(text: str)`, the alternative constructors).
 */
export function pythonConstructors(source: string, file: string, functions: FunctionInfo[]): string[] {
  const lines = source.split("\n");
  const defs = headers(lines, file, functions);
  const logical = logicalLines(lines, 1, lines.length);
  const out: string[] = [];
  logical.forEach((l, k) => {
    const name = /^class\s+(\w+)/.exec(l.head)?.[1];
    if (!name) return;
    const decorators: string[] = [];
    for (let j = k - 1; j >= 0 && logical[j]!.head.startsWith("@"); j--) decorators.push(logical[j]!.head);
    const init = [...defs.entries()].find(([, d]) => d.fn.qualname === `${name}.__init__`);
    if (init) {
      out.push(`${name}(${parameters(joined(lines, logicalLines(lines, init[0], init[1].headerEnd)[0]!))})`);
    } else if (decorators.some((d) => /^@(dataclasses\.)?dataclass\b/.test(d))) {
      const body = logical.slice(k + 1).filter((b) => b.indent > l.indent);
      const end = logical.slice(k + 1).findIndex((b) => b.indent <= l.indent);
      const fields = (end < 0 ? body : logical.slice(k + 1, k + 1 + end))
        .filter((b) => b.indent === (body[0]?.indent ?? -1) && /^\w+\s*:/.test(b.head))
        .filter((b) => !/:\s*(typing\.)?ClassVar\b/.test(b.head))
        .map((b) => joined(lines, b));
      out.push(`${name}(${fields.join(", ")})`);
    } else {
      out.push(`${name}()`);
    }
    for (const [def, { fn, headerEnd }] of defs) {
      if (!fn.qualname.startsWith(`${name}.`) || fn.qualname.split(".").length !== 2) continue;
      const above = lines.slice(fn.startLine - 1, def - 1).map((t) => t.trim());
      if (!above.some((d) => d === "@classmethod" || d === "@staticmethod")) continue;
      const header = joined(lines, logicalLines(lines, def, headerEnd)[0]!);
      const returns = /\)\s*->\s*(.+?):\s*$/.exec(header)?.[1];
      out.push(`${fn.qualname}(${parameters(header)})${returns ? ` -> ${returns}` : ""}`);
    }
  });
  return out;
}

export const PYTHON_PROMPTS: PromptWords = {
  syntax: {
    lineComment: "#",
    definition: DEF,
    nameOf: (line) => /^\s*(?:async\s+)?def\s+(\w+)/.exec(line)?.[1],
  },
  fence: () => "python",
  definitionLine: "its `def` line",
  examples: {
    debugger: "b calendar_utils.py:14 ;; c ;; p year % 400 != 0",
    replace: 'REPLACE(calendar_utils.py:14, "!=", "==") AND RUN',
    add: 'ADD(prices.py:9, "print(i, price)") AND RUN',
  },
  testFile: "pytest test file",
  importOf: (file, options) => `from ${pythonImportName(file, options?.testSource)} import ...`,
  moduleSummary: pythonModuleSummary,
  constructors: pythonConstructors,
};
