/**
 * The AutoSD experiment language, parsed in pure TypeScript: debugger commands
 * (`b file:line ;; c ;; p expr`), the edit-and-run DSL (`REPLACE(...) AND ADD(...)
 * AND DEL(...) AND RUN`) and LDB's `trace file:function`. Malformed input gets a
 * message a model can act on. `applyEdits` is reused to build patches.
 */
import type { TraceBlock } from "./types.js";

export type Edit =
  | { op: "REPLACE"; line: number; file?: string; old: string; new: string }
  | { op: "ADD"; line: number; file?: string; stmt: string }
  | { op: "DEL"; line: number; file?: string; old: string };

export type Experiment =
  | { kind: "debugger"; file?: string; line: number; exprs: string[] }
  | { kind: "edit"; edits: Edit[] }
  | { kind: "trace"; file: string; qualname: string };

export type ParsedExperiment = { ok: true; experiment: Experiment } | { ok: false; error: string };

/** What the experiment language needs to know of a programming language: its files' extensions and a statement. */
export interface ExperimentSyntax {
  /**
   * The source files' extensions without the dot, the one examples use first (Python: `py`;
   * JavaScript: `ts`, `js`, ...): a file in an experiment ends with one of them.
   */
  extensions: readonly string[];
  /** A statement that prints `x`, for the help text (Python: `print(x)`). */
  printStatement: string;
  /** What a qualified function name may hold after `trace file:` (default: Python's `[A-Za-z_][\w.]*`). */
  qualname?: RegExp;
}

/** The help texts and file patterns of one syntax. */
interface Forms {
  edit: string;
  debug: string;
  forms: string;
  ext: string;
  /** `path.ext:` (captured) before a line number. */
  fileAt: RegExp;
  /** `path.ext:qualname`, both captured. */
  traceAt: RegExp;
}

function formsOf(syntax: ExperimentSyntax): Forms {
  const ext = syntax.extensions[0] ?? "";
  const edit =
    `Edit experiments look like REPLACE(4, "old", "new") AND ADD(7, ${JSON.stringify(syntax.printStatement)}) AND DEL(9, "old") AND RUN; ` +
    "line numbers are those of the original file (optionally file:line); strings are in double or single quotes, " +
    'with \\" for a quote inside.';
  const debug = `Debugger experiments look like b path/to/file.${ext}:12 ;; c ;; p expression (one breakpoint, one or more p).`;
  const escaped = `(?:${syntax.extensions.map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`;
  const qualname = syntax.qualname?.source ?? "[A-Za-z_][\\w.]*";
  return {
    edit,
    debug,
    forms: `${debug} ${edit} A trace looks like trace path/to/file.${ext}:Class.method.`,
    ext,
    fileAt: new RegExp(`^(?:([^\\s,():"']+\\.${escaped}):)?(\\d+)`),
    traceAt: new RegExp(`^(\\S+\\.${escaped}):(${qualname})$`),
  };
}

const fail = (error: string): ParsedExperiment => ({ ok: false, error });

/** Whether a path a model or a request names stays inside the repository (relative, no `..`). */
export const insideRepository = (file: string): boolean =>
  !file.startsWith("/") && !file.split("/").includes("..");

/** Parses one experiment about files of `syntax`; strips the backticks a model wraps it in. */
export function parseExperiment(input: string, syntax: ExperimentSyntax): ParsedExperiment {
  const f = formsOf(syntax);
  const text = input
    .trim()
    .replace(/^`+|`+$/g, "")
    .trim();
  if (!text) return fail(`The experiment is empty. ${f.forms}`);
  if (/^trace\s/i.test(text)) return parseTrace(text.replace(/^trace\s+/i, "").trim(), f);
  if (/^(REPLACE|ADD|DEL|RUN)\b/i.test(text) || /^[A-Z_]+\s*\(/.test(text)) return parseEdits(text, f);
  if (/^(b|break)\s/.test(text) || text.includes(";;")) return parseDebugger(text, f);
  return fail(`Unrecognised experiment "${abbreviate(text)}". ${f.forms}`);
}

function parseTrace(target: string, f: Forms): ParsedExperiment {
  const m = f.traceAt.exec(target);
  if (!m)
    return fail(
      `A trace needs file.${f.ext}:function, e.g. trace src/pkg/mod.${f.ext}:Class.method (got "${abbreviate(target)}").`,
    );
  return { ok: true, experiment: { kind: "trace", file: m[1]!, qualname: m[2]! } };
}

function parseDebugger(text: string, f: Forms): ParsedExperiment {
  let split: string[];
  try {
    split = splitOutsideQuotes(text, ";;");
  } catch (err) {
    return fail(`${(err as Error).message} ${f.debug}`);
  }
  let breakpoint: { file?: string; line: number } | undefined;
  const exprs: string[] = [];
  for (const raw of split) {
    const cmd = raw.trim();
    if (!cmd) continue;
    const m = /^(b|break|c|cont|continue|r|run|p|pp|print)\b\s*(.*)$/s.exec(cmd);
    const word = m?.[1] ?? cmd;
    const arg = (m?.[2] ?? "").trim();
    if (word === "b" || word === "break") {
      if (breakpoint) return fail(`Only one breakpoint per experiment is supported. ${f.debug}`);
      const m = /^(?:(\S+?):)?(\d+)$/.exec(arg);
      if (!m) return fail(`The breakpoint "${abbreviate(arg)}" is not file.${f.ext}:line. ${f.debug}`);
      breakpoint = { file: m[1], line: Number(m[2]) };
      if (breakpoint.line < 1) return fail("Line numbers start at 1.");
    } else if (word === "c" || word === "cont" || word === "continue" || word === "run" || word === "r") {
      if (arg) return fail(`"${word}" takes no argument. ${f.debug}`);
    } else if (word === "p" || word === "pp" || word === "print") {
      if (!arg) return fail(`"${word}" needs an expression. ${f.debug}`);
      exprs.push(word === "print" && /^\(.*\)$/s.test(arg) ? arg.slice(1, -1) : arg);
    } else {
      return fail(`Unsupported debugger command "${abbreviate(cmd)}". ${f.debug}`);
    }
  }
  if (!breakpoint) return fail(`The experiment sets no breakpoint. ${f.debug}`);
  if (exprs.length === 0) return fail(`The experiment prints nothing. ${f.debug}`);
  return { ok: true, experiment: { kind: "debugger", ...breakpoint, exprs } };
}

/** Splits at `sep`, except inside '...' or "..." (with backslash escapes). Throws on an unclosed quote. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quote: string | undefined;
  let quoteAt = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      quoteAt = i;
    } else if (text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  if (quote) throw new Error(unclosed(text, quoteAt));
  parts.push(text.slice(start));
  return parts;
}

function unclosed(text: string, at: number): string {
  return `Unbalanced quotes: the string starting at column ${at + 1} (${abbreviate(text.slice(at))}) is never closed.`;
}

function abbreviate(s: string, max = 40): string {
  return s.length <= max ? s : `${s.slice(0, max)}...`;
}

/** A tiny scanner for the edit DSL; every method returns an error message a model can act on. */
class EditScanner {
  pos = 0;
  constructor(
    readonly text: string,
    readonly f: Forms,
  ) {}

  atEnd(): boolean {
    this.ws();
    return this.pos >= this.text.length;
  }

  ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  rest(max = 20): string {
    return abbreviate(this.text.slice(this.pos), max);
  }

  word(): string {
    this.ws();
    const m = /^[A-Za-z_]+/.exec(this.text.slice(this.pos));
    if (!m) return "";
    this.pos += m[0].length;
    return m[0];
  }

  expect(ch: string, what: string): string | undefined {
    this.ws();
    if (this.text[this.pos] === ch) {
      this.pos++;
      return undefined;
    }
    const found = this.pos < this.text.length ? `"${this.rest()}"` : "the end of the experiment";
    return `Expected ${what} at column ${this.pos + 1}, found ${found}. ${this.f.edit}`;
  }

  /** A single- or double-quoted string with \n, \t, \\ and quote escapes. */
  str(): { value: string } | { error: string } {
    this.ws();
    const { text } = this;
    const quote = text[this.pos];
    if (quote !== '"' && quote !== "'") {
      return {
        error: `Expected a quoted string at column ${this.pos + 1}, found "${this.rest()}". ${this.f.edit}`,
      };
    }
    const start = this.pos;
    let value = "";
    this.pos++;
    while (this.pos < text.length) {
      const ch = text[this.pos]!;
      if (ch === "\\" && this.pos + 1 < text.length) {
        value += unescape(text[this.pos + 1]!);
        this.pos += 2;
      } else if (ch === quote) {
        this.pos++;
        return { value };
      } else {
        value += ch;
        this.pos++;
      }
    }
    return { error: `${unclosed(text, start)} ${this.f.edit}` };
  }

  /** `12` or `path/to/file.ext:12`. */
  location(): { line: number; file?: string } | { error: string } {
    this.ws();
    const m = this.f.fileAt.exec(this.text.slice(this.pos));
    if (!m) {
      return {
        error: `Expected a line number at column ${this.pos + 1}, found "${this.rest()}". ${this.f.edit}`,
      };
    }
    this.pos += m[0].length;
    const line = Number(m[2]);
    if (line < 1) return { error: "Line numbers start at 1." };
    return { line, ...(m[1] ? { file: m[1] } : {}) };
  }
}

function unescape(next: string): string {
  if (next === "n") return "\n";
  if (next === "t") return "\t";
  if (next === "\\" || next === '"' || next === "'") return next;
  return `\\${next}`;
}

/** One `REPLACE(...)`, `ADD(...)` or `DEL(...)` after its command word. */
function parseEdit(scan: EditScanner, op: "REPLACE" | "ADD" | "DEL"): Edit | { error: string } {
  const open = scan.expect("(", `"(" after ${op}`);
  if (open) return { error: open };
  const loc = scan.location();
  if ("error" in loc) return loc;
  const strings: string[] = [];
  const arity = op === "REPLACE" ? 2 : 1;
  for (let i = 0; i < arity; i++) {
    const comma = scan.expect(",", `"," and a quoted argument of ${op}`);
    if (comma) return { error: comma };
    const s = scan.str();
    if ("error" in s) return s;
    strings.push(s.value);
  }
  const close = scan.expect(")", `")" closing ${op} (${op} takes ${arity + 1} arguments)`);
  if (close) return { error: close };
  if (op === "ADD") return { op, ...loc, stmt: strings[0]! };
  if (strings[0] === "") return { error: `${op} at line ${loc.line} has an empty old text. ${scan.f.edit}` };
  return op === "REPLACE"
    ? { op, ...loc, old: strings[0]!, new: strings[1]! }
    : { op, ...loc, old: strings[0]! };
}

/** COMMAND(line, "str", ...) joined with AND, ending in RUN (which may be left out). */
function parseEdits(text: string, f: Forms): ParsedExperiment {
  const scan = new EditScanner(text, f);
  const edits: Edit[] = [];
  for (;;) {
    const start = scan.pos;
    const op = scan.word().toUpperCase();
    if (op === "RUN") {
      if (!scan.atEnd()) return fail(`RUN must come last, but "${scan.rest(40)}" follows it. ${scan.f.edit}`);
      break;
    }
    if (op !== "REPLACE" && op !== "ADD" && op !== "DEL") {
      const found = text.slice(start).trim() || "the end of the experiment";
      return fail(`Unknown edit command at column ${start + 1}: "${abbreviate(found, 20)}". ${scan.f.edit}`);
    }
    const edit = parseEdit(scan, op);
    if ("error" in edit) return fail(edit.error);
    edits.push(edit);
    const joiner = scan.word().toUpperCase();
    if (joiner === "AND") continue;
    // A missing final RUN is implied.
    if ((joiner === "RUN" || joiner === "") && scan.atEnd()) break;
    return fail(`Expected AND or RUN after ${op}(...) at column ${scan.pos + 1}. ${scan.f.edit}`);
  }
  if (edits.length === 0)
    return fail(`RUN alone changes nothing: add at least one REPLACE, ADD or DEL. ${scan.f.edit}`);
  return { ok: true, experiment: { kind: "edit", edits } };
}

export interface EditResult {
  source: string;
  /** Edits that could not be applied, one sentence each (e.g. old text not on the line). */
  problems: string[];
}

/** Renders an edit back in the DSL (for messages and reports). */
export function formatEdit(edit: Edit): string {
  const q = (s: string) => JSON.stringify(s);
  const at = edit.file ? `${edit.file}:${edit.line}` : String(edit.line);
  if (edit.op === "REPLACE") return `REPLACE(${at}, ${q(edit.old)}, ${q(edit.new)})`;
  if (edit.op === "ADD") return `ADD(${at}, ${q(edit.stmt)})`;
  return `DEL(${at}, ${q(edit.old)})`;
}

/** An edit-and-run experiment: `REPLACE(14, "!=", "==") AND RUN`. */
export function formatEditExperiment(edits: Edit[]): string {
  return [...edits.map(formatEdit), "RUN"].join(" AND ");
}

/**
 * Applies edits to a source text. Line numbers always refer to the original
 * text, whatever earlier edits inserted or removed. REPLACE/DEL change every
 * occurrence of `old` on the line; a DEL that leaves only whitespace removes the
 * line; ADD inserts above the line with that line's indentation (unless the
 * statement comes indented), keeping the relative indentation of its lines.
 */
export function applyEdits(source: string, edits: Edit[]): EditResult {
  const lines = source.split("\n");
  const current: (string | null)[] = [...lines];
  const above: string[][] = lines.map(() => []);
  const after: string[] = [];
  const problems: string[] = [];
  const count = source.endsWith("\n") ? lines.length - 1 : lines.length;

  for (const edit of edits) {
    const idx = edit.line - 1;
    if (edit.op === "ADD") {
      if (edit.line > count + 1) {
        problems.push(`${formatEdit(edit)} was not applied: the file has only ${count} lines.`);
        continue;
      }
      const indent = indentationAt(lines, idx);
      // A statement given without indentation takes the line's; one given indented is kept as written.
      const given = edit.stmt.split("\n");
      const added = /^\s/.test(edit.stmt) ? given : given.map((l) => (l === "" ? l : indent + l));
      if (edit.line === count + 1) after.push(...added);
      else above[idx]!.push(...added);
      continue;
    }
    if (edit.line > count) {
      problems.push(`${formatEdit(edit)} was not applied: the file has only ${count} lines.`);
      continue;
    }
    const text = current[idx];
    if (text === null || text === undefined) {
      problems.push(
        `${formatEdit(edit)} was not applied: line ${edit.line} was already deleted by an earlier DEL.`,
      );
      continue;
    }
    if (!text.includes(edit.old)) {
      problems.push(
        `${formatEdit(edit)} was not applied: line ${edit.line} does not contain ${JSON.stringify(edit.old)}. ` +
          `Line ${edit.line} is: ${JSON.stringify(text.trim())}`,
      );
      continue;
    }
    if (edit.op === "REPLACE") current[idx] = text.split(edit.old).join(edit.new);
    else {
      const rest = text.split(edit.old).join("");
      current[idx] = rest.trim() === "" ? null : rest;
    }
  }

  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i === count) out.push(...after);
    out.push(...above[i]!);
    const line = current[i];
    if (line !== null && line !== undefined) out.push(line);
  }
  if (count === lines.length) out.push(...after);
  return { source: out.join("\n"), problems };
}

/** Indentation of line `idx`, or of the next non-blank line when it is blank. */
function indentationAt(lines: string[], idx: number): string {
  for (let i = idx; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() !== "") return /^\s*/.exec(line)![0];
  }
  return "";
}

/*
 * Observation wording every language's runtime shares (AutoSD's and LDB's), so engines can
 * read an observation back whatever the language.
 */

/** The edit-and-run observation of a test that passed. */
export const NO_EXCEPTION = "[No exception triggered]";
/** Values a debugger experiment reports at most. */
export const MAX_VALUES = 100;

type Value = { value: string } | { error: string };
const valueText = (v: Value) => ("value" in v ? v.value : v.error);

/** One expression's values over every hit: the value itself for one hit, AutoSD's loop sentence for several. */
export function renderValues(values: Value[], totalHits: number): string {
  const first = values[0];
  if (!first) return "";
  if (values.length === 1) return valueText(first);
  if ("error" in first && values.every((v) => "error" in v && v.error === first.error)) {
    return `${first.error} (at each of the ${totalHits} executions)`;
  }
  const list = `At each loop execution, the expression was: [${values.map(valueText).join(", ")}]`;
  return totalHits > values.length ? `${list} (the first ${values.length} of ${totalHits} executions)` : list;
}

const KEEP_BLOCKS = 5;

const vars = (values: Record<string, string>): string => {
  const entries = Object.entries(values);
  return entries.length === 0 ? "(none)" : entries.map(([k, v]) => `${k} = ${v}`).join(", ");
};

/**
 * LDB's block trace as text: each block's code with the variables at its entry and exit. `blocks`
 * are the first and last five of `total`; `outcome` is how the test ended.
 */
export function renderBlocks(
  trace: { file: string; qualname: string; testId: string; total: number; outcome: string },
  blocks: TraceBlock[],
): string {
  const { file, qualname, testId, total, outcome } = trace;
  if (total === 0)
    return `The test ${testId} never called ${qualname} (${file}). The test ended with: ${outcome}`;
  const shown = total > 2 * KEEP_BLOCKS ? "; the first 5 and the last 5 are shown" : "";
  const count = total === 1 ? "1 block" : `${total} blocks`;
  const lines = [`Trace of ${qualname} (${file}) in ${testId}: ${count}${shown}.`];
  blocks.forEach((b, i) => {
    if (i === KEEP_BLOCKS && total > 2 * KEEP_BLOCKS)
      lines.push(`[... ${total - 2 * KEEP_BLOCKS} blocks omitted ...]`);
    const span = b.startLine === b.endLine ? `line ${b.startLine}` : `lines ${b.startLine}-${b.endLine}`;
    lines.push(`[Block ${b.index}] ${span}`);
    for (const code of (b.code ?? "").split("\n")) lines.push(`    ${code.trim()}`);
    lines.push(`  before: ${vars(b.before)}`);
    lines.push(`  after:  ${vars(b.after)}`);
  });
  lines.push(`The test ended with: ${outcome}`);
  return lines.join("\n");
}
