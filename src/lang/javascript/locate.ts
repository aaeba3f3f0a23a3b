/**
 * Which listed function holds a source position: what SBFL and AutoFL map covered lines to.
 * Like localize's functionLocator for Python (innermost span), with columns, because JavaScript
 * puts several functions on one line (`const a = () => 1, b = () => 2`, a one-line callback).
 */
import type { JsFunctionInfo } from "./functions.js";

export type FunctionLookup = (file: string, line: number, column?: number) => JsFunctionInfo | undefined;

const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
const strictlyBefore = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 < c2);

/**
 * A lookup over these functions. Without a column, a line belongs to the innermost function whose
 * lines hold it, the one starting latest on the line when several do; with a column (0-based), to
 * the innermost function whose text holds that position. Module-level lines belong to none.
 */
export function lineToFunction(functions: readonly JsFunctionInfo[]): FunctionLookup {
  const byFile = new Map<string, JsFunctionInfo[]>();
  for (const f of functions) {
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  return (file, line, column) => {
    let inner: JsFunctionInfo | undefined;
    for (const f of byFile.get(file) ?? []) {
      const holds =
        column === undefined
          ? f.startLine <= line && line <= f.endLine
          : before(f.startLine, f.startColumn, line, column) &&
            before(line, column, f.endLine, f.endColumn - 1);
      if (!holds) continue;
      // Nested functions start after (and end before) the functions around them.
      if (
        !inner ||
        strictlyBefore(inner.startLine, inner.startColumn, f.startLine, f.startColumn) ||
        (f.startLine === inner.startLine &&
          f.startColumn === inner.startColumn &&
          before(f.endLine, f.endColumn, inner.endLine, inner.endColumn))
      )
        inner = f;
    }
    return inner;
  };
}
