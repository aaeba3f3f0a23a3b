/**
 * From proposals to candidates: each edited text must parse with no new syntax or early error
 * (checked on the smallest region that holds the change), must be expressible exactly in the
 * edit DSL (edits.ts), and must differ from every candidate made before.
 */
import ts from "typescript";
import { clip } from "../../../text.js";
import { applyChanges, editsFor, type TextChange } from "../edits.js";
import { functionsIn, type JsFunctionInfo } from "../functions.js";
import { lineToFunction, type FunctionLookup } from "../locate.js";
import { earlyErrors, parseErrors, parseSource, type ParsedSource } from "../parse.js";
import { namesIn, type Context, type Proposal } from "./context.js";
import type { JsCandidateFamily, JsRepairCandidate } from "./types.js";

/**
 * Families whose edits may add an early error (`await` outside an async function, `??` beside
 * `||`, a name declared twice, duplicate arrow parameters): their candidates are also checked by
 * the checker. The others can only break syntax (optional chaining is never added where it
 * would be an early error: an assignment target, `new`'s callee, a tag, `++`'s operand).
 */
const EARLY_FAMILIES: ReadonlySet<JsCandidateFamily> = new Set<JsCandidateFamily>([
  "nullish-coalescing",
  "missing-await",
  "async-foreach",
  "block-scope",
  "callback-this",
]);

interface Region {
  start: number;
  end: number;
  prefix: string;
  suffix: string;
}

/** Whether edited texts stay free of syntax and early errors the original did not have. */
export class SyntaxCheck {
  parses = 0;
  private readonly baselines = new Map<string, Map<string, number>>();
  private readonly ext: string;

  constructor(private readonly src: ParsedSource) {
    this.ext = /\.[a-z]+$/i.exec(src.path)?.[0] ?? ".js";
  }

  /**
   * Whether the changes add no syntax error; with `early`, no early error either (the checker's,
   * slower: it runs on the innermost function around the change, whose context decides them).
   */
  accepts(changes: readonly TextChange[], early: boolean): boolean {
    const first = Math.min(...changes.map((c) => c.start));
    const last = Math.max(...changes.map((c) => c.end));
    const region = this.region(first, last, early);
    const shifted = changes.map((c) => ({ ...c, start: c.start - region.start, end: c.end - region.start }));
    const body = applyChanges(this.src.text.slice(region.start, region.end), shifted);
    if (body === undefined) return false;
    const key = `${early}:${region.start}:${region.end}:${region.prefix}`;
    let baseline = this.baselines.get(key);
    if (!baseline) {
      baseline = this.errors(
        region.prefix + this.src.text.slice(region.start, region.end) + region.suffix,
        early,
      );
      this.baselines.set(key, baseline);
    }
    const now = this.errors(region.prefix + body + region.suffix, early);
    for (const [error, count] of now) if (count > (baseline.get(error) ?? 0)) return false;
    return true;
  }

  private errors(text: string, early: boolean): Map<string, number> {
    this.parses++;
    const path = `hypofix-region${this.ext}`;
    const out = new Map<string, number>();
    let found;
    if (early) {
      const parsed = parseSource(path, text);
      if (!parsed.ok) return new Map([["unreadable", 1]]);
      found = earlyErrors({ ...parsed.source, module: this.src.module });
    } else found = parseErrors(path, text, this.src.module);
    for (const e of found) {
      const key = `${e.code}:${e.message}`;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
    return out;
  }

  /**
   * Where to check [first, last): for syntax, the innermost statement (or class member) holding it,
   * parsed alone (a syntax error is local; what the statement's context would add, the original
   * has too and the comparison ignores); for early errors, the innermost function holding it,
   * whose context (async, a generator, its scope) decides them. The top-level statements otherwise.
   */
  private region(first: number, last: number, early: boolean): Region {
    const { file } = this.src;
    let statement: ts.Node | undefined;
    let fn: ts.Node | undefined;
    const visit = (n: ts.Node): void => {
      if (n.getStart(file) > first || n.getEnd() < last) return;
      if (ts.isStatement(n) || ts.isClassElement(n)) statement = n;
      if (ts.isFunctionLike(n) && "body" in n && n.body) fn = n;
      ts.forEachChild(n, visit);
    };
    file.statements.forEach(visit);
    const inner = early ? fn : statement;
    if (inner) return wrapped(inner, file);
    const touched = file.statements.filter(
      (s) => s.getStart(file) < Math.max(last, first + 1) && s.getEnd() > first,
    );
    if (touched.length === 0) return { start: 0, end: this.src.text.length, prefix: "", suffix: "" };
    return {
      start: Math.min(first, touched[0]!.getStart(file)),
      end: Math.max(last, touched.at(-1)!.getEnd()),
      prefix: "",
      suffix: "",
    };
  }
}

/** A node as a text that parses alone: a statement as it is, an expression in parentheses, a member in a class. */
function wrapped(node: ts.Node, file: ts.SourceFile): Region {
  const at = { start: node.getStart(file), end: node.getEnd() };
  if (ts.isStatement(node) && !ts.isClassElement(node)) return { ...at, prefix: "", suffix: "" };
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return { ...at, prefix: "(", suffix: ");" };
  return { ...at, prefix: "class HypofixRegion {\n", suffix: "\n}" };
}

const kindNames = new Map<number, string>();
for (const [name, value] of Object.entries(ts.SyntaxKind)) {
  if (typeof value === "number" && !/^(First|Last)/.test(name) && !kindNames.has(value))
    kindNames.set(value, name);
}
export const kindName = (node: ts.Node): string => kindNames.get(node.kind) ?? "Node";

/** What the build step shares across the suspect lines of one request. */
export class Builder {
  readonly check: SyntaxCheck;
  private readonly seen = new Set<string>();
  private lookup?: FunctionLookup;

  constructor(private readonly ctx: Context) {
    this.check = new SyntaxCheck(ctx.src);
  }

  private functionAt(node: ts.Node): JsFunctionInfo | undefined {
    this.lookup ??= lineToFunction(functionsIn(this.ctx.src));
    const at = this.ctx.start(node);
    return this.lookup(this.ctx.src.path, this.ctx.src.lines.lineOf(at), this.ctx.src.lines.columnOf(at));
  }

  /** The proposals for the current suspect, likeliest first, that make valid candidates, up to `budget`. */
  materialize(found: Proposal[], unit: ts.Node, budget: number): JsRepairCandidate[] {
    const { ctx } = this;
    const out: JsRepairCandidate[] = [];
    const order = found.map((p, i) => ({ p, i })).sort((a, b) => a.p.prior - b.p.prior || a.i - b.i);
    for (const { p } of order) {
      if (out.length >= budget) break;
      const edited = applyChanges(ctx.text, p.changes);
      if (edited === undefined || edited === ctx.text || this.seen.has(edited)) continue;
      this.seen.add(edited);
      if (!this.check.accepts(p.changes, EARLY_FAMILIES.has(p.family))) continue;
      const made = editsFor(ctx.text, p.changes);
      if (!made) continue;
      out.push(this.record(p, unit, made.edits));
    }
    return out;
  }

  private record(p: Proposal, unit: ts.Node, edits: JsRepairCandidate["edits"]): JsRepairCandidate {
    const { ctx } = this;
    const path = ctx.src.path;
    const fn = this.functionAt(p.node);
    return {
      family: p.family,
      file: path,
      line: Math.min(...edits.map((e) => e.line)),
      suspect: ctx.suspect,
      edits: edits.map((e) => ({ ...e, file: path })),
      claim: p.claim,
      features: {
        node: kindName(p.node),
        statement: kindName(unit),
        function: fn?.qualname ?? "",
        names: [...new Set(p.names ?? namesIn(p.node))].filter(Boolean).sort(),
        literals: p.literals ?? [],
        before: clip(p.before ?? "", 200),
        after: clip(p.after ?? "", 200),
        inLoop: ctx.inLoop(p.node),
        edits: edits.length,
      },
      prior: Math.round(p.prior * 1000) / 1000,
      ...(p.because ? { because: p.because } : {}),
    };
  }
}
