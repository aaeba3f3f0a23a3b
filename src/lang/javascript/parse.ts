/**
 * JavaScript and TypeScript source read on the host with the TypeScript compiler API.
 * Parsing is reading data: nothing here runs, compiles to run, or resolves the code it reads,
 * and no file is opened (the one-file programs below are served from memory).
 *
 * Line numbers everywhere in this folder count "\n"-separated lines from 1, as the edit DSL
 * (`applyEdits`), git and editors do; a lone "\r" or U+2028 inside a line does not start a new one.
 */
import ts from "typescript";

/** Larger sources are refused rather than parsed (a generated bundle, not code a person reads). */
export const MAX_SOURCE_CHARS = 4_000_000;

const KINDS = new Map<string, ts.ScriptKind>(
  Object.entries({
    ".ts": ts.ScriptKind.TS,
    ".mts": ts.ScriptKind.TS,
    ".cts": ts.ScriptKind.TS,
    ".tsx": ts.ScriptKind.TSX,
    ".js": ts.ScriptKind.JS,
    ".mjs": ts.ScriptKind.JS,
    ".cjs": ts.ScriptKind.JS,
    ".jsx": ts.ScriptKind.JSX,
  }),
);

/** The script kind a path's extension names (`.ts`, `.tsx`, `.js`, `.jsx`, `.mjs`, ...), or undefined. */
export function scriptKindOf(path: string): ts.ScriptKind | undefined {
  if (/\.d\.[cm]?ts$/.test(path)) return undefined;
  const ext = /\.[a-z]+$/i.exec(path)?.[0]?.toLowerCase();
  return ext ? KINDS.get(ext) : undefined;
}

/** Whether the path is a JavaScript or TypeScript source file this folder reads (declaration files are not). */
export const isJavaScriptSource = (path: string): boolean => scriptKindOf(path) !== undefined;

/** Offsets of line starts ("\n" only), for 1-based line numbers. */
export class LineIndex {
  readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  get count(): number {
    return this.starts.length;
  }

  /** The 1-based line holding offset `pos`. */
  lineOf(pos: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The 0-based column of offset `pos` on its line (UTF-16 units). */
  columnOf(pos: number): number {
    return pos - this.starts[this.lineOf(pos) - 1]!;
  }

  /** Offset of the first character of a 1-based line. */
  startOf(line: number): number {
    return this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1]!;
  }

  /** Offset just past the last character of a 1-based line (before its "\n"). */
  endOf(line: number): number {
    return line >= this.starts.length ? this.text.length : this.starts[line]! - 1;
  }

  /** The text of a 1-based line, without its "\n". */
  line(line: number): string {
    return this.text.slice(this.startOf(line), this.endOf(line));
  }
}

export interface ParsedSource {
  path: string;
  text: string;
  file: ts.SourceFile;
  kind: ts.ScriptKind;
  /** ESM (import/export, `.mjs`/`.mts`): top-level `await` is allowed. */
  module: boolean;
  lines: LineIndex;
}

export interface SyntaxProblem {
  line: number;
  message: string;
  code: number;
}

export type ParseResult = { ok: true; source: ParsedSource } | { ok: false; problem: string };

/** Parses one file. Never throws: an unknown extension, an oversized or too deeply nested source is a problem. */
export function parseSource(path: string, text: string): ParseResult {
  const kind = scriptKindOf(path);
  if (kind === undefined) {
    return { ok: false, problem: `${path} is not a JavaScript or TypeScript source file` };
  }
  if (text.length > MAX_SOURCE_CHARS) {
    return {
      ok: false,
      problem: `${path} has ${text.length} characters, more than the ${MAX_SOURCE_CHARS} read`,
    };
  }
  let file: ts.SourceFile;
  try {
    file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  } catch (err) {
    return { ok: false, problem: `${path} could not be parsed: ${tooDeep(err)}` };
  }
  const module = /\.m[jt]s$/.test(path) || file.statements.some(isModuleSyntax);
  return { ok: true, source: { path, text, file, kind, module, lines: new LineIndex(text) } };
}

/** The message for an error thrown while walking a tree: a stack overflow means nesting too deep. */
export function tooDeep(err: unknown): string {
  if (err instanceof RangeError) return "its expressions nest too deeply to read";
  return err instanceof Error ? err.message : String(err);
}

function isModuleSyntax(s: ts.Statement): boolean {
  if (ts.isImportDeclaration(s) || ts.isExportDeclaration(s) || ts.isExportAssignment(s)) return true;
  if (ts.isImportEqualsDeclaration(s)) return false;
  return hasModifier(s, ts.SyntaxKind.ExportKeyword);
}

/** Whether a node carries a modifier (`export`, `async`, `static`, `default`, ...). */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** A program over one in-memory file: no lib, no resolution, nothing read from disk. */
function oneFileProgram(file: ts.SourceFile, module: boolean): ts.Program {
  const name = file.fileName;
  const host: ts.CompilerHost = {
    getSourceFile: (n) => (n === name ? file : undefined),
    getDefaultLibFileName: () => "/hypofix-no-lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (f) => f === name,
    readFile: () => undefined,
    directoryExists: () => false,
    getDirectories: () => [],
  };
  const options: ts.CompilerOptions = {
    noLib: true,
    noResolve: true,
    // checkJs left unset: a plain JavaScript file then gets the checker's grammar and binder errors
    // (redeclarations, `await` outside async) but no type errors; `checkJs: false` would drop both.
    allowJs: true,
    noEmit: true,
    types: [],
    target: ts.ScriptTarget.ESNext,
    jsx: ts.JsxEmit.Preserve,
    moduleDetection: module ? ts.ModuleDetectionKind.Force : ts.ModuleDetectionKind.Auto,
  };
  return ts.createProgram({ rootNames: [name], options, host });
}

/**
 * Diagnostics of the checker that JavaScript engines raise as early (syntax) errors, or that make
 * TypeScript refuse the file whatever the types: grammar errors (1xxx), a block-scoped name
 * declared twice, `??` mixed with `||`, an optional chain assigned to, a constant assigned to,
 * a block-scoped name used before its declaration.
 */
const EARLY = new Set([2300, 2451, 5076, 2779, 2780, 2588, 2448]);

function describe(d: ts.Diagnostic, lines: LineIndex): SyntaxProblem {
  return {
    line: d.start === undefined ? 1 : lines.lineOf(d.start),
    message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    code: d.code,
  };
}

/** The parser's errors (and, for JavaScript, TypeScript-only syntax): what makes the file unreadable. */
export function syntaxErrors(source: ParsedSource): SyntaxProblem[] {
  const program = oneFileProgram(source.file, source.module);
  return program.getSyntacticDiagnostics(source.file).map((d) => describe(d, source.lines));
}

/**
 * The parser's own errors for a text, without building a program: the fast check for many
 * edited copies of one region. `parseDiagnostics` is internal to the API's types (typescript-estree
 * reads it the same way); where it is missing, the program's syntactic diagnostics answer.
 */
export function parseErrors(path: string, text: string, module: boolean): SyntaxProblem[] {
  const kind = scriptKindOf(path) ?? ts.ScriptKind.JS;
  let file: ts.SourceFile;
  try {
    file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  } catch (err) {
    return [{ line: 1, message: tooDeep(err), code: 0 }];
  }
  const own = (file as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  const lines = new LineIndex(text);
  if (Array.isArray(own)) return own.map((d) => describe(d, lines));
  return syntaxErrors({ path, text, file, kind, module, lines });
}

/**
 * The parser's errors and the checker's early errors (EARLY) together. Slower than syntaxErrors
 * (the checker runs over the file), so callers check small regions.
 */
export function earlyErrors(source: ParsedSource): SyntaxProblem[] {
  const program = oneFileProgram(source.file, source.module);
  const syntactic = program.getSyntacticDiagnostics(source.file);
  if (syntactic.length > 0) return syntactic.map((d) => describe(d, source.lines));
  return program
    .getSemanticDiagnostics(source.file)
    .filter((d) => d.category === ts.DiagnosticCategory.Error && (d.code < 2000 || EARLY.has(d.code)))
    .map((d) => describe(d, source.lines));
}

/** The first syntax error as one sentence: `src/a.ts does not parse: ';' expected (line 3)`. */
export function describeSyntaxError(path: string, errors: SyntaxProblem[]): string | undefined {
  const first = errors[0];
  return first ? `${path} does not parse: ${first.message} (line ${first.line})` : undefined;
}
