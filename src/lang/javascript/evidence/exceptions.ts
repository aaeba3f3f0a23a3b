/**
 * What JavaScript's own errors name: the property read on `undefined`/`null` (and, with the
 * failing line's source, the expression that was), the callee that was not a function, the name
 * never declared or read before its initialisation, the constant assigned to.
 */
import ts from "typescript";
import { parseSource } from "../parse.js";
import type { JsFailureEvidence, PropertyAccessError } from "./types.js";

type Named = Pick<
  JsFailureEvidence,
  "access" | "notCallable" | "undefinedName" | "uninitialized" | "constantAssigned"
>;

const NOTHING: Named = {
  access: null,
  notCallable: null,
  undefinedName: null,
  uninitialized: null,
  constantAssigned: false,
};

/** What an error's type and message name. */
export function namedByError(type: string, message: string): Named {
  const out: Named = { ...NOTHING };
  const read =
    /Cannot (read|set) propert(?:y|ies) of (undefined|null) \((?:reading|setting) '(.*)'\)/.exec(message) ??
    /Cannot (read|set) property '(.*)' of (undefined|null)/.exec(message);
  if (read) {
    const modern = read[0].includes("(");
    const kind = read[1] === "set" ? "set" : "read";
    out.access = {
      kind,
      property: (modern ? read[3] : read[2])!,
      of: (modern ? read[2] : read[3]) as "undefined" | "null",
    };
    return out;
  }
  const destructure = /Cannot destructure property '(.*?)' of '(.*?)' as it is (undefined|null)/.exec(
    message,
  );
  if (destructure) {
    out.access = {
      kind: "destructure",
      property: destructure[1]!,
      of: destructure[3] as "undefined" | "null",
      expression: destructure[2]!,
    };
    return out;
  }
  const whole = /Cannot destructure '(.*?)' as it is (undefined|null)/.exec(message);
  if (whole) {
    out.access = {
      kind: "destructure",
      property: "",
      of: whole[2] as "undefined" | "null",
      expression: whole[1]!,
    };
    return out;
  }
  const callable =
    /^(.+?) is not (a function|a constructor|iterable|a function or its return value is not iterable)\b/.exec(
      message,
    );
  if (callable && (type === "TypeError" || type === "")) {
    const what =
      callable[2] === "a constructor" ? "constructor" : callable[2] === "iterable" ? "iterable" : "function";
    out.notCallable = { expression: callable[1]!.replace(/^\(intermediate value\)\.?/, ""), what };
    return out;
  }
  const undefinedName = /^(\S+) is not defined$/.exec(message);
  if (undefinedName && (type === "ReferenceError" || type === "")) out.undefinedName = undefinedName[1]!;
  const tdz = /^Cannot access '(.+?)' before initialization$/.exec(message);
  if (tdz) out.uninitialized = tdz[1]!;
  if (/^Assignment to constant variable\.?$/.test(message)) out.constantAssigned = true;
  return out;
}

/**
 * The expression on a source line whose value had no `property`: `order.customer` for
 * `order.customer.name` (`?.` and `[...]` reads too). The first such read on the line.
 */
export function expressionReading(
  path: string,
  source: string,
  line: number,
  property: string,
): string | undefined {
  const parsed = parseSource(path, source);
  if (!parsed.ok) return undefined;
  const { file, lines } = parsed.source;
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found || n.getEnd() < lines.startOf(line) || n.getStart(file) > lines.endOf(line)) return;
    if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
      const at = ts.isPropertyAccessExpression(n) ? n.name : n.argumentExpression;
      const name = ts.isPropertyAccessExpression(n)
        ? n.name.text
        : ts.isStringLiteralLike(at) || ts.isNumericLiteral(at)
          ? at.text
          : /^\d+$/.test(property)
            ? property // `a[i]` read index `property` of an undefined `a`
            : undefined;
      if (name === property && lines.lineOf(at.getStart(file)) === line) {
        found = n.expression.getText(file).replace(/\s+/g, "");
        return;
      }
    }
    if (
      ts.isVariableDeclaration(n) &&
      ts.isObjectBindingPattern(n.name) &&
      n.initializer &&
      lines.lineOf(n.getStart(file)) === line
    ) {
      const names = n.name.elements.map((e) => (e.propertyName ?? e.name).getText(file));
      if (names.includes(property)) {
        found = n.initializer.getText(file).replace(/\s+/g, "");
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  try {
    visit(file);
  } catch {
    return undefined;
  }
  return found;
}

/** The access error with its expression filled in from the failing line, when the line shows it. */
export function withExpression(
  access: PropertyAccessError,
  at: { file: string; line: number; source?: string } | undefined,
): PropertyAccessError {
  if (access.expression || !at?.source) return access;
  const expression = expressionReading(at.file, at.source, at.line, access.property);
  return expression ? { ...access, expression } : access;
}
