/** Named functions of a JavaScript or TypeScript file and the lines they span, read with the
 * TypeScript compiler's parser (the code is only parsed, never run): function declarations,
 * class methods, constructors and accessors (`Class.method`, `Class.constructor`), functions
 * and arrow functions assigned to a variable or property, and methods of object literals
 * assigned to a name (`RULES.percent`). Nested ones are qualified by their parents
 * (`Router.run.step`); an anonymous callback belongs to the named function around it. */
import ts from "typescript";

export interface FunctionSpan {
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

function propertyName(name: ts.PropertyName | ts.BindingName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

function isFunctionValue(node: ts.Node): boolean {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

/** The name a node gives to a function span and/or to the scope of its children. */
function naming(node: ts.Node): { span?: string; scope?: string } {
  if (ts.isFunctionDeclaration(node) && node.name) return { span: node.name.text };
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
    const name =
      node.name?.text ?? (ts.isVariableDeclaration(node.parent) ? propertyName(node.parent.name) : undefined);
    return name === undefined ? {} : { scope: name };
  }
  if (ts.isConstructorDeclaration(node)) return { span: "constructor" };
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node))
    return { span: propertyName(node.name) };
  if (
    (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) &&
    node.initializer !== undefined
  ) {
    const name = propertyName(node.name);
    if (isFunctionValue(node.initializer)) return { span: name };
    if (ts.isObjectLiteralExpression(node.initializer)) return { scope: name };
  }
  return {};
}

export function functionSpans(fileName: string, text: string): FunctionSpan[] {
  const kind = /\.tsx?$|\.[cm]ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node, prefix: string[]) => {
    const { span, scope } = naming(node);
    let inner = prefix;
    if (span !== undefined) {
      inner = [...prefix, span];
      spans.push({
        name: inner.join("."),
        startLine: lineOf(node.getStart(source)),
        endLine: lineOf(node.end),
      });
    } else if (scope !== undefined) {
      inner = [...prefix, scope];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return spans;
}

/** The innermost named function containing `line`, or null at module level. */
export function enclosingFunction(spans: readonly FunctionSpan[], line: number): string | null {
  let best: FunctionSpan | null = null;
  for (const span of spans) {
    if (span.startLine <= line && line <= span.endLine && (best === null || span.startLine >= best.startLine))
      best = span;
  }
  return best?.name ?? null;
}
