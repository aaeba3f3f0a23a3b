/**
 * The module-level names of a file that are not functions (`const MAX = 10`, `export const RE =
 * /x/`, `enum Color`): what AutoFL's tools show beside functions. Pure.
 */
import ts from "typescript";
import { isFunctionValue, unwrap } from "./functions.js";
import { hasModifier, type ParsedSource } from "./parse.js";

export type ConstantValueKind =
  "regex" | "string" | "number" | "boolean" | "array" | "object" | "call" | "new" | "other";

/** A module-level name that is not a function: `const MAX = 10`, `export const RE = /x/`, `enum Color`. */
export interface ModuleConstant {
  file: string;
  name: string;
  declaration: "const" | "let" | "var" | "enum";
  value: ConstantValueKind;
  startLine: number;
  endLine: number;
  exported: boolean;
}

function valueKind(init: ts.Expression): ConstantValueKind {
  const v = unwrap(init);
  if (ts.isRegularExpressionLiteral(v)) return "regex";
  if (ts.isNewExpression(v) && ts.isIdentifier(v.expression) && v.expression.text === "RegExp")
    return "regex";
  if (ts.isStringLiteralLike(v) || ts.isTemplateExpression(v)) return "string";
  if (ts.isNumericLiteral(v) || ts.isBigIntLiteral(v)) return "number";
  if (ts.isPrefixUnaryExpression(v) && ts.isNumericLiteral(v.operand)) return "number";
  if (v.kind === ts.SyntaxKind.TrueKeyword || v.kind === ts.SyntaxKind.FalseKeyword) return "boolean";
  if (ts.isArrayLiteralExpression(v)) return "array";
  if (ts.isObjectLiteralExpression(v)) return "object";
  if (ts.isCallExpression(v)) return "call";
  if (ts.isNewExpression(v)) return "new";
  return "other";
}

/** `require(...)`, `import(...)` and `await import(...)`: imports, not constants. */
function isImport(init: ts.Expression): boolean {
  let v = unwrap(init);
  if (ts.isAwaitExpression(v)) v = unwrap(v.expression);
  while (ts.isPropertyAccessExpression(v) || ts.isCallExpression(v)) {
    if (ts.isCallExpression(v)) {
      if (v.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
      if (ts.isIdentifier(v.expression) && v.expression.text === "require") return true;
    }
    v = unwrap(v.expression);
  }
  return false;
}

export function moduleConstants(src: ParsedSource): ModuleConstant[] {
  const out: ModuleConstant[] = [];
  const { lines, file } = src;
  const push = (
    name: string,
    declaration: ModuleConstant["declaration"],
    value: ConstantValueKind,
    node: ts.Node,
    exported: boolean,
  ) =>
    out.push({
      file: src.path,
      name,
      declaration,
      value,
      startLine: lines.lineOf(node.getStart(file)),
      endLine: lines.lineOf(Math.max(node.getStart(file), node.getEnd() - 1)),
      exported,
    });
  for (const s of file.statements) {
    if (ts.isEnumDeclaration(s))
      push(s.name.text, "enum", "object", s, hasModifier(s, ts.SyntaxKind.ExportKeyword));
    if (!ts.isVariableStatement(s)) continue;
    const flags = s.declarationList.flags;
    const declaration = flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var";
    const single = s.declarationList.declarations.length === 1;
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) continue;
      const v = unwrap(d.initializer);
      if (isFunctionValue(v) || ts.isClassExpression(v) || isImport(d.initializer)) continue;
      push(
        d.name.text,
        declaration,
        valueKind(d.initializer),
        single ? s : d,
        hasModifier(s, ts.SyntaxKind.ExportKeyword),
      );
    }
  }
  return out;
}
