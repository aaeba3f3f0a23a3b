/**
 * The functions of one JavaScript/TypeScript file, from its syntax tree: what coverage lines map
 * to, what AutoFL's tools list and show (module-level constants: constants.ts). Pure.
 *
 * Qualified names follow the Python side's (`Class.method`, `outer.inner`): declarations,
 * class and object-literal methods, accessors and constructors, arrow and function expressions
 * given a name (`const f = () => ...`, `exports.f = function () {}`, `module.exports = { f() {} }`,
 * `obj.prop = ...`, `Foo.prototype.bar = ...`, class fields), TypeScript namespaces. An anonymous
 * function passed as an argument is listed only at module level (a route handler, a module-level
 * `map` callback): named after the declaration that holds it, else `callee@line` (`app.get@12`);
 * inside a listed function its lines belong to that function.
 */
import ts from "typescript";
import type { FunctionInfo } from "../types.js";
import { hasModifier, type ParsedSource } from "./parse.js";

export type FunctionKind =
  "function" | "method" | "getter" | "setter" | "constructor" | "arrow" | "function-expression";

export interface JsFunctionInfo extends FunctionInfo {
  kind: FunctionKind;
  async: boolean;
  generator: boolean;
  /** The header as a person reads it: `async load(id, options = {})`, `get total(): number`. */
  signature: string;
  /** 0-based columns of the first and last character's end, on startLine and endLine. */
  startColumn: number;
  endColumn: number;
  /** Exported from the module (`export`, `exports.x =`, `module.exports = ...`). */
  exported: boolean;
}

/** The functions of a parsed file (may throw RangeError on a tree nested too deeply). */
export function functionsIn(source: ParsedSource): JsFunctionInfo[] {
  const collector = new Collector(source);
  collector.statements(source.file.statements, [], false);
  return collector.functions;
}

type FunctionNode = ts.SignatureDeclaration & { body?: ts.Node };

/** Parentheses, `as`, `satisfies`, `<T>x` and `x!` around an expression. */
export function unwrap(node: ts.Expression): ts.Expression {
  let n = node;
  while (
    ts.isParenthesizedExpression(n) ||
    ts.isAsExpression(n) ||
    ts.isSatisfiesExpression(n) ||
    ts.isTypeAssertionExpression(n) ||
    ts.isNonNullExpression(n)
  )
    n = n.expression;
  return n;
}

export const isFunctionValue = (n: ts.Node): n is ts.ArrowFunction | ts.FunctionExpression =>
  ts.isArrowFunction(n) || ts.isFunctionExpression(n);

/** A property's name as written (`#secret`, `"odd key"` → `odd key`, `[Symbol.iterator]`). */
export function propertyName(name: ts.PropertyName | ts.BindingName, file: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))
    return name.text;
  return name.getText(file).replace(/\s+/g, " ");
}

/** `exports.x`, `module.exports.x`, `a.b.c`, `Foo.prototype.m` as name parts; undefined for other targets. */
function assignedName(target: ts.Expression): { parts: string[]; exported: boolean } | undefined {
  const parts: string[] = [];
  let n = unwrap(target);
  while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
    if (ts.isPropertyAccessExpression(n)) parts.unshift(n.name.text);
    else if (ts.isStringLiteralLike(n.argumentExpression)) parts.unshift(n.argumentExpression.text);
    else return undefined;
    n = unwrap(n.expression);
  }
  if (n.kind === ts.SyntaxKind.ThisKeyword) return { parts: ["this", ...parts], exported: false };
  if (!ts.isIdentifier(n)) return undefined;
  parts.unshift(n.text);
  if (parts[0] === "module" && parts[1] === "exports") return { parts: parts.slice(2), exported: true };
  if (parts[0] === "exports") return { parts: parts.slice(1), exported: true };
  return { parts: parts.filter((p) => p !== "prototype"), exported: false };
}

class Collector {
  readonly functions: JsFunctionInfo[] = [];
  private readonly file: ts.SourceFile;
  /** Holders already used by a module-level callback (`x`, then `x#2`). */
  private readonly holders = new Map<string, number>();

  constructor(private readonly src: ParsedSource) {
    this.file = src.file;
  }

  statements(list: readonly ts.Node[], prefix: string[], inFunction: boolean): void {
    for (const s of list) this.visit(s, prefix, inFunction, undefined);
  }

  /**
   * Visits a node. `prefix` is the qualified name of what encloses it; `inFunction` whether a listed
   * function encloses it; `holder` names a module-level declaration being read (for its callbacks).
   */
  private visit(node: ts.Node, prefix: string[], inFunction: boolean, holder: Holder | undefined): void {
    if (ts.isFunctionDeclaration(node)) {
      const name = node.name?.text ?? "default";
      return this.add(node, [...prefix, name], "function", node, exportedNode(node));
    }
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const name = node.name?.text ?? holder?.name ?? "default";
      return this.classMembers(node, [...prefix, name], inFunction, exportedNode(node) || !!holder?.exported);
    }
    if (ts.isModuleDeclaration(node) && node.body) {
      const inner = [...prefix, node.name.getText(this.file)];
      const body = node.body;
      if (ts.isModuleBlock(body)) return this.statements(body.statements, inner, inFunction);
      return this.visit(body, prefix, inFunction, holder);
    }
    if (ts.isVariableStatement(node)) {
      const exported = hasModifier(node, ts.SyntaxKind.ExportKeyword);
      const single = node.declarationList.declarations.length === 1;
      for (const d of node.declarationList.declarations) {
        if (!d.initializer) continue;
        if (!ts.isIdentifier(d.name)) {
          this.visit(d.initializer, prefix, inFunction, holder);
          continue;
        }
        const span = single ? node : d;
        this.value(d.initializer, [...prefix, d.name.text], span, exported, prefix, inFunction);
      }
      return;
    }
    if (ts.isExportAssignment(node)) {
      return this.value(node.expression, [...prefix, "default"], node, true, prefix, inFunction);
    }
    if (ts.isExpressionStatement(node) && ts.isBinaryExpression(node.expression)) {
      const { left, right, operatorToken } = node.expression;
      const target = operatorToken.kind === ts.SyntaxKind.EqualsToken ? assignedName(left) : undefined;
      if (target) {
        const parts =
          target.parts[0] === "this"
            ? [...thisOwner(node, prefix), ...target.parts.slice(1)]
            : [...prefix, ...target.parts];
        if (parts.length === 0) return this.moduleExports(right, node, prefix, inFunction);
        return this.value(right, parts, node, target.exported, prefix, inFunction);
      }
    }
    if (isFunctionValue(node)) {
      if (!inFunction && holder && ts.isCallOrNewExpression(node.parent)) {
        return this.add(node, [...prefix, this.holderName(holder.name)], kindOf(node), node, holder.exported);
      }
      if (!inFunction && !holder && ts.isCallOrNewExpression(node.parent)) {
        const callee = node.parent.expression.getText(this.file).replace(/\s+/g, "");
        const line = this.src.lines.lineOf(node.getStart(this.file));
        return this.add(node, [...prefix, `${callee}@${line}`], kindOf(node), node, false);
      }
      return this.children(node, prefix, inFunction, holder);
    }
    this.children(node, prefix, inFunction, holder);
  }

  private children(node: ts.Node, prefix: string[], inFunction: boolean, holder: Holder | undefined): void {
    ts.forEachChild(node, (c) => this.visit(c, prefix, inFunction, holder));
  }

  private holderName(name: string): string {
    const seen = (this.holders.get(name) ?? 0) + 1;
    this.holders.set(name, seen);
    return seen === 1 ? name : `${name}#${seen}`;
  }

  /** A value given a name: a function, a class, an object literal's members, or an expression holding callbacks. */
  private value(
    init: ts.Expression,
    parts: string[],
    span: ts.Node,
    exported: boolean,
    prefix: string[],
    inFunction: boolean,
  ): void {
    const value = unwrap(init);
    if (isFunctionValue(value)) return this.add(value, parts, kindOf(value), span, exported);
    if (ts.isClassExpression(value)) {
      const name = value.name?.text;
      return this.classMembers(value, name ? [...prefix, name] : parts, inFunction, exported);
    }
    if (ts.isObjectLiteralExpression(value)) return this.objectMembers(value, parts, inFunction, exported);
    this.visit(value, prefix, inFunction, inFunction ? undefined : { name: parts.join("."), exported });
  }

  /** `module.exports = ...`: an object's members keep their own names; a function its own, else `module.exports`. */
  private moduleExports(init: ts.Expression, span: ts.Node, prefix: string[], inFunction: boolean): void {
    const value = unwrap(init);
    if (ts.isObjectLiteralExpression(value)) return this.objectMembers(value, prefix, inFunction, true);
    const own =
      (isFunctionValue(value) || ts.isClassExpression(value)) && value.name ? value.name.text : undefined;
    this.value(init, [...prefix, own ?? "module.exports"], span, true, prefix, inFunction);
  }

  private objectMembers(
    obj: ts.ObjectLiteralExpression,
    parts: string[],
    inFunction: boolean,
    exported: boolean,
  ): void {
    for (const p of obj.properties) {
      if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) {
        this.add(p, [...parts, propertyName(p.name, this.file)], accessorKind(p, "method"), p, exported);
      } else if (ts.isPropertyAssignment(p)) {
        const name = [...parts, propertyName(p.name, this.file)];
        this.value(p.initializer, name, p, exported, parts, inFunction);
      } else this.visit(p, parts, inFunction, undefined);
    }
  }

  private classMembers(
    node: ts.ClassLikeDeclaration,
    parts: string[],
    inFunction: boolean,
    exported: boolean,
  ): void {
    for (const h of node.heritageClauses ?? []) this.visit(h, parts.slice(0, -1), inFunction, undefined);
    for (const m of node.members) {
      if (ts.isConstructorDeclaration(m)) this.add(m, [...parts, "constructor"], "constructor", m, exported);
      else if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m))
        this.add(m, [...parts, propertyName(m.name, this.file)], accessorKind(m, "method"), m, exported);
      else if (ts.isPropertyDeclaration(m) && m.initializer) {
        this.value(m.initializer, [...parts, propertyName(m.name, this.file)], m, exported, parts, true);
      } else if (ts.isClassStaticBlockDeclaration(m)) this.statements(m.body.statements, parts, true);
    }
  }

  /** Lists a function with a body, then reads its body with its name as the prefix. */
  private add(fn: FunctionNode, parts: string[], kind: FunctionKind, span: ts.Node, exported: boolean): void {
    if (!fn.body) return;
    const { lines } = this.src;
    const start = span.getStart(this.file);
    const end = span.getEnd();
    this.functions.push({
      file: this.src.path,
      qualname: parts.join("."),
      startLine: lines.lineOf(start),
      endLine: lines.lineOf(Math.max(start, end - 1)),
      startColumn: lines.columnOf(start),
      endColumn: lines.columnOf(end),
      kind,
      async: hasModifier(fn, ts.SyntaxKind.AsyncKeyword),
      generator: "asteriskToken" in fn && fn.asteriskToken !== undefined,
      signature: signatureOf(fn, parts.at(-1) ?? "", kind, this.file),
      exported,
    });
    for (const p of fn.parameters) this.visit(p, parts, true, undefined);
    this.visit(fn.body, parts, true, undefined);
  }
}

/**
 * Whose property `this.x = ...` sets: in a class's constructor or method, the class's
 * (`prefix` without the method); in a constructor function, the function's.
 */
function thisOwner(node: ts.Node, prefix: string[]): string[] {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (ts.isFunctionLike(n)) return ts.isClassLike(n.parent) ? prefix.slice(0, -1) : prefix;
  }
  return prefix;
}

interface Holder {
  name: string;
  exported: boolean;
}

function exportedNode(node: ts.Node): boolean {
  return hasModifier(node, ts.SyntaxKind.ExportKeyword);
}

function kindOf(fn: ts.ArrowFunction | ts.FunctionExpression): FunctionKind {
  return ts.isArrowFunction(fn) ? "arrow" : "function-expression";
}

function accessorKind(m: ts.Node, otherwise: FunctionKind): FunctionKind {
  if (ts.isGetAccessorDeclaration(m)) return "getter";
  if (ts.isSetAccessorDeclaration(m)) return "setter";
  return otherwise;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** `async *name(a, b = 1): T`, `get total()`, `constructor(x)`. */
function signatureOf(fn: FunctionNode, name: string, kind: FunctionKind, file: ts.SourceFile): string {
  const params = fn.parameters.map((p) => oneLine(p.getText(file))).join(", ");
  const ret = fn.type ? `: ${oneLine(fn.type.getText(file))}` : "";
  const head =
    (hasModifier(fn, ts.SyntaxKind.AsyncKeyword) ? "async " : "") +
    (kind === "getter" ? "get " : kind === "setter" ? "set " : "") +
    ("asteriskToken" in fn && fn.asteriskToken ? "*" : "");
  return `${head}${name}(${params})${ret}`;
}
