import { formatEditExperiment, NO_EXCEPTION } from "../../lang/experiment.js";
import { codeSpan as code } from "../../text.js";
import type { EngineCandidate } from "../generate.js";
import { attempt, type Attempted } from "./attempt.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun } from "./state.js";
import { claimOf } from "./words.js";

/**
 * The base: an edit that made the first failing test pass while other failing tests still
 * fail becomes the base the next edits are tried on, against the first test still failing.
 * The candidates of lines the first test never reached join the queue (that test may reach
 * them), and the edits like the base's go next. Whether `tried` became the base.
 */
export function takeBase(run: OfflineRun, next: number, item: PlannedHypothesis, tried: Attempted): boolean {
  const { passed, validation } = tried;
  const firstOnly =
    passed && validation && validation.brokenTests.length === 0 && validation.stillFailing.length > 0;
  if (!firstOnly || run.base) return false;
  const { queue } = run;
  run.base = { item, test: validation.stillFailing[0]! };
  queue.push(...run.unreached.splice(0));
  // The same slip is often made twice (copied code): the edits like the first fix go next.
  queue.splice(next + 1, queue.length, ...alikeFirst(queue.slice(next + 1), item.candidate));
  return true;
}

/** Whether the hypothesis is a second fault, elsewhere than the base's edit. */
export function besideBase(run: OfflineRun, item: PlannedHypothesis): boolean {
  const base = run.base?.item.candidate;
  return base !== undefined && (base.file !== item.candidate.file || base.line !== item.candidate.line);
}

/**
 * The second-fault strategy: the candidate on top of the base's edit, judged by the test the
 * base left failing. `seen` is the probe's values in words. Whether the pair validated.
 */
export async function onBase(run: OfflineRun, item: PlannedHypothesis, seen: string): Promise<boolean> {
  const base = run.base!;
  const { candidate } = item;
  const claim = claimOf(candidate);
  const because = item.because ? ` ${item.because}` : "";
  const edits = [...base.item.candidate.edits, ...candidate.edits];
  const { validation } = await attempt(
    run,
    {
      hypothesis: `${claim} This is a second fault, beside the one fixed by ${code(formatEditExperiment(base.item.candidate.edits))}, which made ${code(run.bug.primaryTest)} pass while ${code(base.test)} still failed.${because}${seen}`,
      claim: `${claim} ${claimOf(base.item.candidate)}`,
      prediction: `With both edits, ${code(base.test)} passes (${code(NO_EXCEPTION)}).`,
      experiment: formatEditExperiment(edits),
    },
    edits,
    candidate.file,
    base.test,
    item,
  );
  return validation?.plausible === true;
}

/**
 * The hypotheses in their order, those whose edit is like `fix` first: the same replacement
 * (`issued` → `due` elsewhere), then the same kind of mistake. Stable otherwise.
 */
export function alikeFirst<T extends { candidate: Pick<EngineCandidate, "family" | "edits"> }>(
  items: T[],
  fix: Pick<EngineCandidate, "family" | "edits">,
): T[] {
  const alike = (c: T["candidate"]) => (sameReplacement(c, fix) ? 0 : c.family === fix.family ? 1 : 2);
  return items
    .map((item, order) => ({ item, order, rank: alike(item.candidate) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ item }) => item);
}

/** Whether two candidates make the same text replacement (`route` → `prefix`), wherever they make it. */
export function sameReplacement(
  a: Pick<EngineCandidate, "edits">,
  b: Pick<EngineCandidate, "edits">,
): boolean {
  const pairs = new Set(b.edits.flatMap((e) => (e.op === "REPLACE" ? [`${e.old}\0${e.new}`] : [])));
  return a.edits.some((e) => e.op === "REPLACE" && pairs.has(`${e.old}\0${e.new}`));
}
