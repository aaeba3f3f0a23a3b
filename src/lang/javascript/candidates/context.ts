/**
 * What a candidate family sees of the file while it proposes edits: the tree, positions, the
 * names in scope, and `propose`, which records a candidate as text changes of the original
 * source (checked, turned into DSL edits and ranked later, in build.ts).
 */
import ts from "typescript";
import { clip, codeSpan } from "../../../text.js";
import type { TextChange } from "../edits.js";
import type { JsFailureEvidence } from "../evidence/types.js";
import type { ParsedSource } from "../parse.js";
import { Scopes } from "./scope.js";
import type { JsCandidateFamily } from "./types.js";

/** What a candidate does, in terms evidence speaks (evidence-rank.ts reads these). */
export interface Facts {
  /** The expression made safe against `undefined`/`null` (`a` in `a?.b`, `x` in `x ?? d`, `x == null`). */
  guarded?: string;
  /** A property name replaced (`o.p` → `o.q`): the object's text and both names. */
  property?: { object: string; old: string; new: string };
  /** A name replaced by another. */
  identifier?: { old: string; new: string };
  /** The call an added `await` waits for. */
  awaited?: string;
  /** A declaration's keyword changed (`const` → `let`, `var` → `let`). */
  declaration?: { name: string; old: string; new: string };
  /** A number changed by one, a bound made strict or loose, `+ 1` added or removed. */
  byOne?: boolean;
  /** The sign or direction flipped (`+` ↔ `-`, `<` ↔ `>`, `a - b` ↔ `b - a`). */
  sign?: boolean;
  /** A scale changed (`*` ↔ `/`). */
  factor?: boolean;
  /** Operands converted to numbers before `+` (a string was concatenated). */
  numeric?: boolean;
  /** The order of results changed (a sort comparator, swapped arguments). */
  order?: boolean;
  /** A value now returned (or a promise now awaited) where `undefined` came out. */
  returns?: boolean;
}

export interface Proposal {
  family: JsCandidateFamily;
  /** Smaller is likelier: about 1 for single-token slips, 3 and more for broad guesses. */
  prior: number;
  changes: TextChange[];
  /** One sentence, code in backticks. */
  claim: string;
  /** The node the edit is anchored on (for features). */
  node: ts.Node;
  names?: string[];
  literals?: string[];
  before?: string;
  after?: string;
  facts?: Facts;
  /** Set by evidence-rank.ts: what in the failure's evidence made this proposal likelier. */
  because?: string;
}

/** A code span of one line of code, shortened. */
export const code = (text: string, limit = 80): string => codeSpan(clip(text, limit));

export class Context {
  readonly file: ts.SourceFile;
  readonly text: string;
  /** The suspect line being worked on, and the proposals made for it. */
  suspect = 0;
  found: Proposal[] = [];
  private scopeCache?: Scopes;

  constructor(
    readonly src: ParsedSource,
    readonly evidence: JsFailureEvidence | undefined,
  ) {
    this.file = src.file;
    this.text = src.text;
  }

  get scopes(): Scopes {
    this.scopeCache ??= new Scopes(this.file);
    return this.scopeCache;
  }

  propose(p: Proposal): void {
    if (p.changes.length > 0) this.found.push(p);
  }

  /** Proposes replacing one node's text. */
  replace(
    family: JsCandidateFamily,
    prior: number,
    node: ts.Node,
    text: string,
    claim: string,
    extra: Omit<Proposal, "family" | "prior" | "changes" | "claim" | "node"> = {},
  ): void {
    const old = this.seg(node);
    if (old === text) return;
    this.propose({
      family,
      prior,
      changes: [{ start: this.start(node), end: node.getEnd(), text }],
      claim,
      node,
      before: old,
      after: text,
      ...extra,
    });
  }

  /** Proposes replacing the source between two offsets. */
  replaceRange(
    family: JsCandidateFamily,
    prior: number,
    node: ts.Node,
    start: number,
    end: number,
    text: string,
    claim: string,
    extra: Omit<Proposal, "family" | "prior" | "changes" | "claim" | "node"> = {},
  ): void {
    const old = this.text.slice(start, end);
    if (old === text) return;
    this.propose({
      family,
      prior,
      changes: [{ start, end, text }],
      claim,
      node,
      before: old,
      after: text,
      ...extra,
    });
  }

  seg(node: ts.Node): string {
    return node.getText(this.file);
  }

  start(node: ts.Node): number {
    return node.getStart(this.file);
  }

  lineOf(node: ts.Node): number {
    return this.src.lines.lineOf(this.start(node));
  }

  /** Offset of a token of a given kind among a node's direct children (an operator, a keyword). */
  tokenStart(node: ts.Node, kind: ts.SyntaxKind): number | undefined {
    return node
      .getChildren(this.file)
      .find((c) => c.kind === kind)
      ?.getStart(this.file);
  }

  /** The innermost function-like node around a node (arrow functions included). */
  enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
    for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return n;
    return undefined;
  }

  /** Whether the node is inside a loop body (of its own function). */
  inLoop(node: ts.Node): boolean {
    for (let n = node.parent; n; n = n.parent) {
      if (ts.isFunctionLike(n)) return false;
      if (ts.isIterationStatement(n, false)) return true;
    }
    return false;
  }

  /** The text of an expression, in parentheses unless it is an atom (a name, a member chain, a call, a literal). */
  operand(node: ts.Expression): string {
    const text = this.seg(node);
    return isAtom(node) ? text : `(${text})`;
  }

  /** `text` for `node`'s place: parenthesised when `node`'s parent binds tighter than a binary expression. */
  fit(node: ts.Node, text: string): string {
    const p = node.parent;
    const loose =
      ts.isExpressionStatement(p) ||
      ts.isReturnStatement(p) ||
      ts.isVariableDeclaration(p) ||
      ts.isParenthesizedExpression(p) ||
      ts.isPropertyAssignment(p) ||
      ts.isArrayLiteralExpression(p) ||
      ts.isTemplateSpan(p) ||
      ts.isIfStatement(p) ||
      ts.isWhileStatement(p) ||
      ts.isDoStatement(p) ||
      ts.isForStatement(p) ||
      ts.isSwitchStatement(p) ||
      ts.isCaseClause(p) ||
      ts.isThrowStatement(p) ||
      ts.isSpreadElement(p) ||
      ts.isJsxExpression(p) ||
      (ts.isArrowFunction(p) && p.body === node && !text.trimStart().startsWith("{")) ||
      (ts.isCallOrNewExpression(p) && (p.arguments ?? []).some((a) => a === node)) ||
      (ts.isElementAccessExpression(p) && p.argumentExpression === node) ||
      (ts.isBinaryExpression(p) && p.right === node && p.operatorToken.kind === ts.SyntaxKind.EqualsToken);
    return loose ? text : `(${text})`;
  }
}

/** A name, a member chain, a call, an index, a literal, or something already in parentheses. */
export function isAtom(node: ts.Expression): boolean {
  const n = node;
  return (
    ts.isIdentifier(n) ||
    ts.isPropertyAccessExpression(n) ||
    ts.isElementAccessExpression(n) ||
    ts.isCallExpression(n) ||
    ts.isParenthesizedExpression(n) ||
    ts.isLiteralExpression(n) ||
    ts.isArrayLiteralExpression(n) ||
    ts.isObjectLiteralExpression(n) ||
    n.kind === ts.SyntaxKind.ThisKeyword ||
    n.kind === ts.SyntaxKind.TrueKeyword ||
    n.kind === ts.SyntaxKind.FalseKeyword ||
    n.kind === ts.SyntaxKind.NullKeyword ||
    ts.isTemplateExpression(n) ||
    ts.isNonNullExpression(n)
  );
}

/** The identifiers read in a node (for features). */
export function namesIn(node: ts.Node): string[] {
  const out = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) out.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return [...out];
}

/** How alike two names are, from 0 to 1 (1 - edit distance / longer length), case ignored. */
export function similarity(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return 1;
  const row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (x[i - 1] === y[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return 1 - row[y.length]! / Math.max(x.length, y.length, 1);
}
