/**
 * Names in scope and the kinds of value they hold, from the syntax tree alone: enough to
 * replace a name by another of the same kind, to know which calls return promises and which
 * properties an object has. Kinds come from type annotations, initializers and how a name is used.
 */
import ts from "typescript";
import { unwrap } from "../functions.js";
import { kindOfType, kindOfValue, USAGE_KIND, type Kind } from "./kinds.js";

export type { Kind } from "./kinds.js";

export type Role = "var" | "let" | "const" | "param" | "function" | "class" | "import" | "catch" | "enum";

export interface Binding {
  name: string;
  role: Role;
  /** The identifier that declares it. */
  id: ts.Identifier;
  /** The declaration (VariableDeclaration, Parameter, FunctionDeclaration, ...). */
  decl: ts.Node;
  /** The node whose region it is visible in. */
  scope: ts.Node;
  /** Offset from which it is initialised (let/const/class: after its declaration; others: its scope's start). */
  from: number;
}

const isScope = (n: ts.Node): boolean =>
  ts.isSourceFile(n) ||
  ts.isFunctionLike(n) ||
  ts.isBlock(n) ||
  ts.isForStatement(n) ||
  ts.isForInStatement(n) ||
  ts.isForOfStatement(n) ||
  ts.isCatchClause(n) ||
  ts.isCaseBlock(n) ||
  ts.isModuleBlock(n) ||
  ts.isClassStaticBlockDeclaration(n);

/** The nearest function (or file) around a node, where `var` lands. */
export function functionScopeOf(node: ts.Node): ts.Node {
  for (let n = node.parent; n; n = n.parent) {
    if (
      ts.isFunctionLike(n) ||
      ts.isSourceFile(n) ||
      ts.isModuleBlock(n) ||
      ts.isClassStaticBlockDeclaration(n)
    )
      return n;
  }
  return node.getSourceFile();
}

function blockScopeOf(node: ts.Node): ts.Node {
  for (let n = node.parent; n; n = n.parent) if (isScope(n)) return n;
  return node.getSourceFile();
}

/** The identifiers a binding name (`x`, `{ a, b: [c] }`) declares. */
export function boundIdentifiers(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundIdentifiers(e.name)));
}

/** Whether an identifier reads or writes a variable (not a property name, a declaration, a label or a type). */
export function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (!p) return false;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if (
    ts.isQualifiedName(p) ||
    ts.isTypeNode(p) ||
    ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p)
  )
    return false;
  if (ts.isMetaProperty(p) || ts.isJsxAttribute(p) || ts.isExportSpecifier(p) || ts.isImportSpecifier(p))
    return false;
  if (ts.isJsxOpeningLikeElement(p) || ts.isJsxClosingElement(p)) return /^[A-Z]/.test(id.text);
  if (ts.isBindingElement(p)) return false;
  if (ts.isShorthandPropertyAssignment(p)) return true;
  if ("name" in p && (p as { name?: ts.Node }).name === id) return false;
  for (let n: ts.Node = p; n && !ts.isSourceFile(n); n = n.parent) {
    if (
      ts.isTypeNode(n) ||
      ts.isHeritageClause(n) ||
      ts.isInterfaceDeclaration(n) ||
      ts.isTypeAliasDeclaration(n)
    )
      return ts.isHeritageClause(n) && ts.isClassLike(n.parent);
    if (ts.isStatement(n) || ts.isFunctionLike(n)) break;
  }
  return true;
}

export class Scopes {
  /** Bindings declared in each scope node. */
  private readonly declared = new Map<ts.Node, Binding[]>();
  private refs?: Map<Binding, ts.Identifier[]>;
  private readonly kinds = new Map<Binding, Kind>();

  constructor(readonly file: ts.SourceFile) {
    this.collect(file);
  }

  private bind(id: ts.Identifier, role: Role, decl: ts.Node, scope: ts.Node, from: number): void {
    const list = this.declared.get(scope) ?? [];
    list.push({ name: id.text, role, id, decl, scope, from });
    this.declared.set(scope, list);
  }

  private collect(root: ts.Node): void {
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && ts.isVariableDeclarationList(n.parent)) {
        const flags = n.parent.flags;
        const role: Role = flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var";
        const scope = role === "var" ? functionScopeOf(n) : blockScopeOf(n.parent);
        // `for (const x of xs)`: `x` is uninitialised while `xs` is read.
        const loop = n.parent.parent;
        const header =
          ts.isForOfStatement(loop) || ts.isForInStatement(loop) ? loop.expression.getEnd() : n.getEnd();
        const from = role === "var" ? scope.pos : header;
        for (const id of boundIdentifiers(n.name)) this.bind(id, role, n, scope, from);
      } else if (ts.isParameter(n)) {
        for (const id of boundIdentifiers(n.name)) this.bind(id, "param", n, n.parent, n.parent.pos);
      } else if (ts.isFunctionDeclaration(n) && n.name) {
        const scope = blockScopeOf(n);
        this.bind(n.name, "function", n, scope, scope.pos);
      } else if ((ts.isFunctionExpression(n) || ts.isClassExpression(n)) && n.name) {
        this.bind(n.name, ts.isFunctionExpression(n) ? "function" : "class", n, n, n.pos);
      } else if (ts.isClassDeclaration(n) && n.name) {
        this.bind(n.name, "class", n, blockScopeOf(n), n.getEnd());
      } else if (ts.isEnumDeclaration(n)) {
        this.bind(n.name, "enum", n, blockScopeOf(n), n.getEnd());
      } else if (ts.isCatchClause(n) && n.variableDeclaration) {
        for (const id of boundIdentifiers(n.variableDeclaration.name)) this.bind(id, "catch", n, n, n.pos);
      } else if (ts.isImportClause(n) && n.name) {
        this.bind(n.name, "import", n, this.file, 0);
      } else if (ts.isImportSpecifier(n) || ts.isNamespaceImport(n) || ts.isImportEqualsDeclaration(n)) {
        this.bind(n.name, "import", n, this.file, 0);
      }
      ts.forEachChild(n, visit);
    };
    visit(root);
  }

  /** Every name visible at a node, innermost declaration first; let/const/class only once initialised there. */
  visibleAt(node: ts.Node): Map<string, Binding> {
    const out = new Map<string, Binding>();
    const at = node.getStart(this.file);
    for (let n: ts.Node | undefined = node; n; n = n.parent) {
      for (const b of this.declared.get(n) ?? []) {
        if (out.has(b.name)) continue;
        if ((b.role === "let" || b.role === "const" || b.role === "class") && b.from > at) continue;
        out.set(b.name, b);
      }
    }
    return out;
  }

  /** The binding a reference resolves to, ignoring initialisation order. */
  resolve(id: ts.Identifier): Binding | undefined {
    for (let n: ts.Node | undefined = id; n; n = n.parent) {
      const found = this.declared.get(n)?.find((b) => b.name === id.text);
      if (found) return found;
    }
    return undefined;
  }

  /** Every binding declared anywhere in the file. */
  all(): Binding[] {
    return [...this.declared.values()].flat();
  }

  /** The references of a binding (reads and writes, its own declaration excluded). */
  references(b: Binding): ts.Identifier[] {
    if (!this.refs) {
      const refs = new Map<Binding, ts.Identifier[]>();
      const visit = (n: ts.Node): void => {
        if (ts.isIdentifier(n) && isReference(n)) {
          const target = this.resolve(n);
          if (target && target.id !== n) refs.set(target, [...(refs.get(target) ?? []), n]);
        }
        ts.forEachChild(n, visit);
      };
      visit(this.file);
      this.refs = refs;
    }
    return this.refs.get(b) ?? [];
  }

  /** Whether a binding is ever assigned after its declaration (`x = ...`, `x += ...`, `x++`). */
  reassigned(b: Binding): boolean {
    return this.references(b).some(isWritten);
  }

  /** The kind of value a binding holds: its annotation, else its initializer, else how it is used. */
  kindOf(b: Binding): Kind {
    const known = this.kinds.get(b);
    if (known) return known;
    this.kinds.set(b, "unknown"); // a cycle (x = y; y = x) ends as unknown
    const kind = this.computeKind(b);
    this.kinds.set(b, kind);
    return kind;
  }

  private computeKind(b: Binding): Kind {
    const d = b.decl;
    if (b.role === "function") return "function";
    if (b.role === "class" || b.role === "enum") return "object";
    if (ts.isVariableDeclaration(d) || ts.isParameter(d)) {
      if (d.type) {
        const k = kindOfType(d.type);
        if (k !== "unknown") return k;
      }
      if (d.initializer && ts.isIdentifier(d.name)) {
        const k = this.kindOfExpression(d.initializer);
        if (k !== "unknown") return k;
      }
      if (
        ts.isVariableDeclaration(d) &&
        ts.isForOfStatement(d.parent.parent) &&
        ts.isIdentifier(d.name) &&
        this.kindOfExpression(d.parent.parent.expression) === "string"
      )
        return "string";
    }
    return this.kindFromUse(b);
  }

  /** A kind from what is done to the name: `.push(` is an array, `.toUpperCase(` a string, `x * 2` a number. */
  private kindFromUse(b: Binding): Kind {
    for (const ref of this.references(b)) {
      const p = ref.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === ref) {
        const k = USAGE_KIND.get(p.name.text);
        if (k) return k;
      }
      if (ts.isBinaryExpression(p) && ARITHMETIC.has(p.operatorToken.kind)) return "number";
      if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && INCREMENT.has(p.operator))
        return "number";
    }
    return "unknown";
  }

  /** The kind of an expression's value, resolving names through their bindings. */
  kindOfExpression(expr: ts.Expression): Kind {
    const e = unwrap(expr);
    if (ts.isIdentifier(e)) {
      if (e.text === "undefined" || e.text === "NaN" || e.text === "Infinity")
        return e.text === "undefined" ? "unknown" : "number";
      const b = this.resolve(e);
      return b ? this.kindOf(b) : "unknown";
    }
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const b = this.resolve(e.expression);
      if (b && isAsyncBinding(b)) return "promise";
    }
    return kindOfValue(e, (x) => this.kindOfExpression(x));
  }
}

const ARITHMETIC = new Set([
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
]);
const INCREMENT = new Set([ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken]);

/** Whether a reference is the target of an assignment or an increment. */
export function isWritten(ref: ts.Node): boolean {
  let n = ref;
  while (ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const p = n.parent;
  if (ts.isBinaryExpression(p) && p.left === n)
    return (
      p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      p.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    );
  if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && INCREMENT.has(p.operator))
    return true;
  return false;
}

/** Whether a binding names an async function (`async function f`, `const f = async () => ...`). */
export function isAsyncBinding(b: Binding): boolean {
  const d = b.decl;
  const fn =
    ts.isFunctionDeclaration(d) || ts.isFunctionExpression(d)
      ? d
      : ts.isVariableDeclaration(d) && d.initializer
        ? unwrap(d.initializer)
        : undefined;
  if (!fn || !(ts.isFunctionLike(fn) || ts.isArrowFunction(fn))) return false;
  return (ts.getCombinedModifierFlags(fn as ts.Declaration) & ts.ModifierFlags.Async) !== 0;
}
