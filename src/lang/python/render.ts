/** Observation texts exactly as the model sees them (AutoSD's and LDB's wording). Pure. */
import type { DebugResult, RawRun, TraceResult } from "./protocol.js";
import { NO_EXCEPTION, renderBlocks, renderValues } from "../experiment.js";
import type { TraceBlock } from "../types.js";

const NEAREST = 5;

/** The debugger observation: values, or a breakpoint never reached with the nearest lines that were. */
export function renderDebugger(result: DebugResult, line: number, exprs: string[]): string {
  const where = `${result.file}:${line}`;
  if (result.hits.length === 0) {
    const parts: string[] = [];
    if (result.reached.length === 0) {
      parts.push(
        `The breakpoint at ${where} was never reached: the test did not execute any line of ${result.file}.`,
      );
    } else {
      const nearest = [...result.reached]
        .sort((a, b) => Math.abs(a - line) - Math.abs(b - line) || a - b)
        .slice(0, NEAREST)
        .sort((a, b) => a - b);
      parts.push(
        `The breakpoint at ${where} was never reached by the test. ` +
          `Lines of ${result.file} the test did execute nearest to it: ${nearest.join(", ")}.`,
      );
    }
    const outcome = runOutcome(result.run);
    if (outcome !== NO_EXCEPTION) parts.push(`The test ended with ${outcome}`);
    return parts.join(" ");
  }
  const byFrame = framesOf(result);
  const values =
    byFrame.length <= 1
      ? renderHits(result.hits, result.total, exprs)
      : [
          `The line runs in ${byFrame.length} frames (a lambda, comprehension or generator on it runs in a frame of its own), so the breakpoint stopped in each:`,
          ...byFrame.map(
            ({ name, hits }) =>
              `In \`${name}\` (${hits.length} of the ${result.hits.length} stops shown): ${renderHits(hits, hits.length, exprs)}`,
          ),
        ].join("\n");
  const hung = result.run.tests[0]?.failure?.type === "TestTimeout" || result.run.timedOut;
  return hung ? `${values}\n(${runOutcome(result.run)})` : values;
}

/** Every expression's values over some hits. */
function renderHits(hits: DebugHit[], total: number, exprs: string[]): string {
  const perExpr = exprs.map((_, i) =>
    renderValues(
      hits.map((hit) => hit[i]!),
      total,
    ),
  );
  return exprs.length === 1 ? perExpr[0]! : exprs.map((e, i) => `${e}: ${perExpr[i]}`).join("\n");
}

type DebugHit = DebugResult["hits"][number];

/** The hits grouped by the frame they stopped in, in order of first stop; one group when the helper did not say. */
function framesOf(result: DebugResult): { name: string; hits: DebugHit[] }[] {
  const groups = new Map<string, DebugHit[]>();
  result.hits.forEach((hit, i) => {
    const name = result.frames?.[i] ?? "";
    groups.set(name, [...(groups.get(name) ?? []), hit]);
  });
  return [...groups].map(([name, hits]) => ({ name, hits }));
}

/** AutoSD's edit-and-run observation for the (single) test of a run. */
export function runOutcome(run: RawRun): string {
  const test = run.tests[0];
  if (test?.failure) return `${test.failure.type}: ${test.failure.message}`.trimEnd();
  if (test?.outcome === "skipped") return `${NO_EXCEPTION} (the test was skipped)`;
  if (test) return NO_EXCEPTION;
  const collect = run.collectFailures[0];
  if (collect) return `${collect.type}: ${collect.message}`;
  if (run.timedOut) return run.errors.join("\n");
  return run.errors.length > 0 ? run.errors.join("\n") : "The test did not run (pytest reported no result).";
}

/** LDB's block trace as text (lang/experiment.ts's wording), and its blocks. */
export function renderTrace(
  result: TraceResult,
  qualname: string,
  testId: string,
  outcome: string,
): { rendered: string; blocks: TraceBlock[] } {
  const blocks: TraceBlock[] = result.blocks.map((b) => ({ ...b }));
  const rendered = renderBlocks(
    { file: result.file, qualname, testId, total: result.total, outcome },
    blocks,
  );
  return { rendered, blocks };
}
