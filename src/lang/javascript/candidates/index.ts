/**
 * Repair candidates for one JavaScript/TypeScript file, drawn from its syntax tree on the host:
 * the same contract as the Python side's `hypofix_candidates.py` (edits in the edit-and-run DSL,
 * each with a family, a one-sentence claim, features and a prior, smaller is likelier), so the
 * same experiment machinery and ranking apply. Pure: the source comes in as text, nothing runs.
 */
import ts from "typescript";
import { describeSyntaxError, parseSource, syntaxErrors, tooDeep, type ParsedSource } from "../parse.js";
import { Builder } from "./build.js";
import { Context } from "./context.js";
import { rankByEvidence } from "./evidence-rank.js";
import { FAMILY_MODULES } from "./registry.js";
import type { JsCandidateRequest, JsCandidateResult, JsRepairCandidate } from "./types.js";

export const DEFAULT_BUDGET = 80;
/** Candidates at most per request, whatever the budget and the number of lines. */
const MAX_TOTAL = 3000;

/** Candidates for the request's suspect lines (or span). Never throws: a problem says why there are none. */
export function candidatesFor(request: JsCandidateRequest): JsCandidateResult {
  const started = performance.now();
  const stats = (parses: number) => ({ parses, ms: Math.round((performance.now() - started) * 10) / 10 });
  const parsed = parseSource(request.path, request.source);
  if (!parsed.ok) return { candidates: [], problem: parsed.problem, stats: stats(1) };
  const src = parsed.source;
  const out: JsRepairCandidate[] = [];
  let builder: Builder | undefined;
  try {
    const problem = describeSyntaxError(request.path, syntaxErrors(src));
    if (problem) return { candidates: [], problem, stats: stats(1) };
    const ctx = new Context(src, request.evidence);
    builder = new Builder(ctx);
    const budget = Number.isFinite(request.budget)
      ? Math.max(1, Math.floor(request.budget!))
      : DEFAULT_BUDGET;
    const doneNodes = new Set<ts.Node>();
    const doneUnits = new Set<ts.Node>();
    const doneFunctions = new Set<ts.Node>();
    for (const { line, unit, units, nodes } of suspectUnits(src, request.lines ?? [], request.span)) {
      ctx.suspect = line;
      ctx.found = [];
      for (const node of nodes) {
        if (doneNodes.has(node)) continue;
        doneNodes.add(node);
        for (const m of FAMILY_MODULES) m.node?.(node, ctx);
      }
      for (const u of units) {
        if (doneUnits.has(u)) continue;
        doneUnits.add(u);
        for (const m of FAMILY_MODULES) m.statement?.(u, ctx);
      }
      const chain = enclosingFunctions(unit);
      if (chain[0] && !doneFunctions.has(chain[0])) {
        doneFunctions.add(chain[0]);
        for (const m of FAMILY_MODULES) m.functions?.(chain, unit, ctx);
      }
      rankByEvidence(ctx.found, ctx);
      out.push(...builder.materialize(ctx.found, unit, budget));
      if (out.length >= MAX_TOTAL) break;
    }
    return { candidates: out.slice(0, MAX_TOTAL), stats: stats(1 + builder.check.parses) };
  } catch (err) {
    const why = `${request.path}: candidates stopped: ${tooDeep(err)}`;
    return { candidates: out, problem: why, stats: stats(1 + (builder?.check.parses ?? 0)) };
  }
}

/** The functions around a node, innermost first (a function's own header counts as inside it). */
function enclosingFunctions(unit: ts.Node): ts.SignatureDeclaration[] {
  const out: ts.SignatureDeclaration[] = [];
  for (let n: ts.Node | undefined = unit; n; n = n.parent)
    if (ts.isFunctionLike(n) && "body" in n) out.push(n);
  return out;
}

/** A statement, a class field, or a `case` label: what a suspect line belongs to. */
function isUnit(n: ts.Node): boolean {
  if (ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n)) return false;
  return ts.isStatement(n) || ts.isPropertyDeclaration(n) || ts.isCaseClause(n) || ts.isClassElement(n);
}

/** Expressions a unit owns: not those of nested statements or of a function's block body. */
function ownNodes(unit: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (n !== unit && (isUnit(n) || ts.isBlock(n) || ts.isTypeNode(n))) return;
    if (ts.isFunctionLike(n) && n !== unit && !ts.isArrowFunction(n)) {
      out.push(n);
      n.parameters.forEach(visit);
      return;
    }
    if (ts.isFunctionLike(n) && n === unit) {
      n.parameters.forEach(visit);
      return;
    }
    if (n !== unit) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(unit);
  return out;
}

/** The line a node is read at: its operator, its property name, its callee's end, else its start. */
function anchorOf(n: ts.Node, file: ts.SourceFile): number {
  if (ts.isBinaryExpression(n)) return n.operatorToken.getStart(file);
  if (ts.isPropertyAccessExpression(n)) return n.name.getStart(file);
  if (ts.isElementAccessExpression(n)) return n.argumentExpression.getStart(file);
  if (ts.isCallExpression(n)) return Math.max(n.expression.getEnd() - 1, n.expression.getStart(file));
  if (ts.isConditionalExpression(n)) return n.questionToken.getStart(file);
  return n.getStart(file);
}

interface SuspectUnit {
  line: number;
  /** The innermost unit holding the line, and every unit holding it (outermost first). */
  unit: ts.Node;
  units: ts.Node[];
  nodes: ts.Node[];
}

function suspectUnits(
  src: ParsedSource,
  lines: number[],
  span?: { start: number; end: number },
): SuspectUnit[] {
  const { file } = src;
  const units: { unit: ts.Node; first: number; last: number }[] = [];
  const visit = (n: ts.Node): void => {
    if (isUnit(n)) {
      const first = src.lines.lineOf(n.getStart(file));
      units.push({ unit: n, first, last: src.lines.lineOf(Math.max(n.getStart(file), n.getEnd() - 1)) });
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  if (span) {
    return units
      .filter((u) => u.first >= span.start && u.first <= span.end)
      .map((u) => ({ line: u.first, unit: u.unit, units: [u.unit], nodes: ownNodes(u.unit) }));
  }
  const out: SuspectUnit[] = [];
  for (const line of lines) {
    // Units nest in tree order, so the last one holding the line is the innermost; the ones
    // around it on the same line (`if (a < b) return a;`) contribute their expressions too.
    const holding = units.filter((u) => u.first <= line && line <= u.last);
    const inner = holding.at(-1);
    if (!inner) continue;
    const nodes = holding.flatMap((u) =>
      ownNodes(u.unit).filter((n) => src.lines.lineOf(anchorOf(n, file)) === line),
    );
    out.push({ line, unit: inner.unit, units: holding.map((u) => u.unit), nodes });
  }
  return out;
}
