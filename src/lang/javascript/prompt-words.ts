/**
 * What the model's prompts say for JavaScript and TypeScript (the port's PromptWords): the
 * module summary beside the function (from the file's outline), the import a test uses, and
 * the constructors a claim test builds objects with. Pure: the source is parsed, never run.
 */
import path from "node:path";
import type { FunctionInfo, PromptWords } from "../types.js";
import { outline } from "./outline.js";

const MAX_LINES = 120;
const MAX_STATEMENT_LINES = 8;
const MAX_WIDTH = 160;

const EXTENSION = /\.[cm]?[jt]sx?$/;
const TYPESCRIPT = /\.[cm]?tsx?$/;

function cap(text: string): string {
  return text.length > MAX_WIDTH ? `${text.slice(0, MAX_WIDTH)} ...` : text;
}

/**
 * The specifier a test imports `file` by: the one in the test's imports (`import`, `require`,
 * `import()`) that resolves to it, else its path relative to the test without its extension.
 */
export function jsImportSpecifier(file: string, testFile?: string, testSource?: string): string {
  const from = path.posix.dirname(testFile ?? file);
  const target = file.replace(EXTENSION, "");
  for (const m of (testSource ?? "").matchAll(
    /(?:from\s+|require\(\s*|import\(\s*)(["'])(\.{1,2}\/[^"']+)\1/g,
  )) {
    const resolved = path.posix.normalize(path.posix.join(from, m[2]!)).replace(EXTENSION, "");
    if (resolved === target || resolved === `${target}/index` || `${resolved}/index` === target) return m[2]!;
  }
  const relative = path.posix.relative(from, target);
  return relative.startsWith(".") ? relative : `./${relative}`;
}

/**
 * The module outside its functions' bodies: imports, module-level statements (up to 8 lines
 * each), classes with their decorators and fields, each function's header with `{ ... }`.
 */
export function jsModuleSummary(source: string, file: string, functions: FunctionInfo[]): string {
  const lines = source.split("\n");
  const read = outline(file, source);
  const fns = read.functions.length > 0 ? read.functions : functions.filter((f) => f.file === file);
  const headerAt = new Map(fns.map((f) => [f.startLine, f]));
  const out: string[] = [];
  const hidden = (n: number) => fns.some((f) => n > f.startLine && n <= f.endLine);
  let statement = 0;
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]!;
    const code = line.trim();
    if (hidden(n) || code === "" || /^(\/\/|\/\*|\*)/.test(code)) continue;
    if (headerAt.has(n)) {
      const fn = headerAt.get(n)!;
      const end = fn.endLine > n ? " ... }" : "";
      out.push(cap(line.trimEnd() + end));
      statement = 0;
      continue;
    }
    // A statement's continuation lines, capped: a long object or array shows its start.
    statement = /^[\s]/.test(line) || /^[)\]}]/.test(code) ? statement + 1 : 1;
    if (statement <= MAX_STATEMENT_LINES) out.push(cap(line.trimEnd()));
    else if (statement === MAX_STATEMENT_LINES + 1) out.push(`${/^\s*/.exec(line)![0]}...`);
  }
  const shown = out.slice(0, MAX_LINES);
  if (out.length > MAX_LINES) shown.push(`... (${out.length - MAX_LINES} more lines)`);
  return shown.join("\n") || "(nothing at module level)";
}

/** `new Class(params)` from each constructor, and each class's static methods (factories). */
export function jsConstructors(source: string, file: string): string[] {
  const read = outline(file, source);
  const out: string[] = [];
  const lines = source.split("\n");
  const classes = [
    ...source.matchAll(/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/gm),
  ].map((m) => m[1]!);
  for (const name of classes) {
    const ctor = read.functions.find((f) => f.kind === "constructor" && f.qualname === `${name}.constructor`);
    out.push(ctor ? `new ${name}${ctor.signature.replace(/^constructor/, "")}` : `new ${name}()`);
    for (const f of read.functions) {
      if (!f.qualname.startsWith(`${name}.`) || f.qualname.split(".").length !== 2) continue;
      if (/^\s*(public\s+|private\s+|protected\s+)?static\s/.test(lines[f.startLine - 1] ?? ""))
        out.push(`${name}.${f.signature.replace(/^static\s+/, "")}`);
    }
  }
  return out;
}

/** The lines that open a function: declarations, `const f = (...) =>`, methods, class-field arrows. */
const DEFINITIONS = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*[<(]/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|\(\s*$|[\w$]+\s*=>)/,
  /^\s*(?:(?:public|private|protected|static|async|get|set|override)\s+)*(?!(?:if|for|while|switch|catch|with|return|function|else|new|typeof|await|do|try)\b)([\w$#]+)\s*(?:<[^>]*>)?\((?:.*\)\s*(?::\s*[^={]+)?\{|[^)]*)\s*$/,
  /^\s*(?:(?:public|private|protected|static|readonly)\s+)*([\w$#]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+)\s*(?::[^=]+)?=>/,
];

export const JS_SYNTAX = {
  lineComment: "//",
  definition: new RegExp(DEFINITIONS.map((r) => r.source).join("|")),
  nameOf: (line: string) => {
    for (const r of DEFINITIONS) {
      const m = r.exec(line);
      if (m) return m[1];
    }
    return undefined;
  },
};

export const JS_PROMPTS: PromptWords = {
  syntax: JS_SYNTAX,
  fence: (file) => (TYPESCRIPT.test(file) ? "typescript" : "javascript"),
  definitionLine:
    "its header line (`function`, the method's name, or the `const` an arrow function is assigned to)",
  examples: {
    debugger: "b src/cart.ts:14 ;; c ;; p total + item.price",
    replace: 'REPLACE(src/cart.ts:14, "<", "<=") AND RUN',
    add: 'ADD(src/cart.ts:9, "console.log(i, price);") AND RUN',
  },
  testFile: "test file for the project's own test runner",
  importOf: (file, options) =>
    options?.testFile
      ? `import { ... } from "${jsImportSpecifier(file, options.testFile, options.testSource)}"`
      : `import { ... } from "<the path from the test file to ${file.replace(EXTENSION, "")}>"`,
  moduleSummary: jsModuleSummary,
  constructors: (source, file) => jsConstructors(source, file),
};
