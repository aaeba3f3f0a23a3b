import { structuredPatch } from "diff";
import type { FileEdit } from "../debug/types.js";
import type { CoverageReport } from "../lang/types.js";

/**
 * The tests that reach a patch's changed code: those the coverage run saw execute a line of a
 * function the patch changes. A test that runs none of them cannot behave differently with the
 * patch, so the audit runs only these (the fresh revalidation ran the whole suite once). Undefined
 * when some change lies outside every function (module-level code runs for every importer).
 */
export function testsReaching(coverage: CoverageReport, edits: FileEdit[]): string[] | undefined {
  const spans: { file: string; start: number; end: number }[] = [];
  for (const edit of edits) {
    const patch = structuredPatch(edit.file, edit.file, edit.before, edit.after, "", "", { context: 0 });
    for (const hunk of patch.hunks) {
      // A pure insertion (oldLines 0) sits after line oldStart: the function around that line.
      const first = Math.max(1, hunk.oldStart);
      const last = Math.max(first, hunk.oldStart + Math.max(hunk.oldLines, 1) - 1);
      const fns = coverage.functions.filter(
        (f) => f.file === edit.file && f.startLine <= first && f.endLine >= last,
      );
      if (fns.length === 0) return undefined;
      // The innermost function holding the change.
      const fn = fns.reduce((a, b) => (b.endLine - b.startLine < a.endLine - a.startLine ? b : a));
      spans.push({ file: edit.file, start: fn.startLine, end: fn.endLine });
    }
  }
  return Object.entries(coverage.perTest)
    .filter(([, files]) =>
      spans.some((s) => (files[s.file] ?? []).some((line) => line >= s.start && line <= s.end)),
    )
    .map(([test]) => test);
}

/**
 * The tests a run with a patch must cover: those reaching the changed code, the failing ones and
 * the tests an order-dependent one needs before it, in suite order (`order`: the baseline's).
 * Every other test runs none of the changed code, so its outcome and coverage are the baseline's.
 * Undefined: the whole suite (a change outside every function).
 */
export function testsToRun(input: {
  coverage: CoverageReport;
  edits: FileEdit[];
  failing: string[];
  orderDependent: { test: string; precededBy: string[] }[];
  order: string[];
}): string[] | undefined {
  const reaching = testsReaching(input.coverage, input.edits);
  if (reaching === undefined) return undefined;
  const wanted = new Set([...reaching, ...input.failing]);
  for (const o of input.orderDependent) if (wanted.has(o.test)) o.precededBy.forEach((t) => wanted.add(t));
  const inOrder = new Set(input.order);
  return [...input.order.filter((t) => wanted.has(t)), ...[...wanted].filter((t) => !inOrder.has(t))];
}
