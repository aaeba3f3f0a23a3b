/**
 * Source text AutoFL's tools show for JavaScript/TypeScript (as localize/python-source.ts does for
 * Python): a function's comments (JSDoc above it and comments inside, with line numbers), and the
 * failing test's snippet cut at the failing statement, that line marked, earlier assertions removed.
 */
import ts from "typescript";
import type { FunctionInfo } from "../types.js";
import { parseSource, tooDeep } from "./parse.js";

export const ERROR_MARK = "// error occurred here";

const commentText = (text: string, range: ts.CommentRange) => text.slice(range.pos, range.end);

/** JSDoc and comments right above a function, then each comment inside it as `line: text`. Empty when none. */
export function commentsOf(
  path: string,
  source: string,
  fn: Pick<FunctionInfo, "startLine" | "endLine">,
): string {
  const parsed = parseSource(path, source);
  if (!parsed.ok) return "";
  const { lines, text, file } = parsed.source;
  const start = lines.startOf(fn.startLine);
  const end = lines.endOf(fn.endLine);
  const above: string[] = [];
  for (let n = fn.startLine - 1; n >= 1; n--) {
    const t = lines.line(n).trim();
    if (!(t.startsWith("//") || t.startsWith("/*") || t.startsWith("*") || t.endsWith("*/"))) break;
    above.unshift(t);
  }
  // Comments are trivia before tokens: read them token by token, so strings and templates never look like one.
  const seen = new Map<number, string>();
  const visit = (n: ts.Node): void => {
    if (n.getEnd() < start || n.pos > end) return;
    if (n.getChildCount(file) === 0) {
      const ranges = [
        ...(ts.getLeadingCommentRanges(text, n.pos) ?? []),
        ...(ts.getTrailingCommentRanges(text, n.getEnd()) ?? []),
      ];
      for (const r of ranges) {
        if (r.pos >= start && r.end <= end)
          seen.set(r.pos, `${lines.lineOf(r.pos)}: ${commentText(text, r).trim()}`);
      }
      return;
    }
    n.getChildren(file).forEach(visit);
  };
  try {
    visit(file);
  } catch {
    return above.join("\n");
  }
  const inside = [...seen.entries()].sort((x, y) => x[0] - y[0]).map(([, t]) => t);
  return [...above, ...inside].join("\n");
}

const TEST_CALL = /^(it|test|specify|it\.only|test\.only|it\.concurrent|test\.concurrent)$/;
const ASSERTION = /^(expect\s*\(|assert\b|[\w$.]+\.should\b|t\.(is|deepEqual|equal|true|false|ok|assert)\b)/;

/**
 * AutoFL's test snippet for the test whose callback holds `testLine`: its call up to the outermost
 * statement holding `failingLine`, that line marked, earlier assertions dropped. Without a failing
 * line inside, the whole test; undefined when no test call holds `testLine`.
 */
export function cutTestSnippet(
  path: string,
  source: string,
  testLine: number,
  failingLine?: number,
): string | undefined {
  const parsed = parseSource(path, source);
  if (!parsed.ok) return undefined;
  const { file, lines } = parsed.source;
  let test: { call: ts.CallExpression; body: ts.Block } | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && TEST_CALL.test(n.expression.getText(file).replace(/\s+/g, ""))) {
      const cb = n.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a)) as
        ts.ArrowFunction | ts.FunctionExpression | undefined;
      const first = lines.lineOf(n.getStart(file));
      const last = lines.lineOf(n.getEnd());
      if (cb && ts.isBlock(cb.body) && first <= testLine && testLine <= last)
        test = { call: n, body: cb.body };
    }
    ts.forEachChild(n, visit);
  };
  try {
    visit(file);
  } catch (err) {
    return `(the test could not be read: ${tooDeep(err)})`;
  }
  if (!test) return undefined;
  const callStart = lines.lineOf(test.call.getStart(file));
  const callEnd = lines.lineOf(test.call.getEnd());
  const whole = () =>
    Array.from({ length: callEnd - callStart + 1 }, (_, i) => lines.line(callStart + i)).join("\n");
  const headerEnd = lines.lineOf(test.body.getStart(file));
  if (failingLine === undefined || failingLine <= headerEnd || failingLine > callEnd) return whole();
  const out: string[] = [];
  for (let n = callStart; n <= headerEnd; n++) out.push(lines.line(n));
  for (const s of test.body.statements) {
    const first = lines.lineOf(s.getStart(file));
    const last = lines.lineOf(s.getEnd());
    const failing = failingLine >= first && failingLine <= last;
    if (!failing && ASSERTION.test(s.getText(file))) continue;
    for (let n = Math.max(first, headerEnd + 1); n <= last; n++)
      out.push(failing && n === failingLine ? `${lines.line(n)}  ${ERROR_MARK}` : lines.line(n));
    if (failing) return out.join("\n");
  }
  return whole();
}
