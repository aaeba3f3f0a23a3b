import { formatEditExperiment, NO_EXCEPTION } from "../../lang/experiment.js";
import { clip, codeSpan as code } from "../../text.js";
import { progress } from "../progress.js";
import { attempt, type Attempted } from "./attempt.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun, Tried } from "./state.js";
import { capitalize, claimOf } from "./words.js";

/** Two-edit patches tried at most, and earlier failure-changing edits each new one is paired with. */
const MAX_PAIRS = 12;
const PAIR_WITH = 3;

/** The edit as a changer when it moved the first failing test's failure (progress.ts), else undefined. */
export function changerOf(run: OfflineRun, item: PlannedHypothesis, tried: Attempted): Tried | undefined {
  const { bug } = run;
  const moved = tried.passed || !bug.failure ? 0 : progress(bug.failure, tried.obs.failure, run.testFile);
  if (moved === 0) return undefined;
  return { item, outcome: tried.obs.observation.trim().split("\n")[0] ?? "", progress: moved };
}

/**
 * The earlier changers a new one is paired with: other lines of its file, most progress
 * first; at least one of the two must have moved the failure clearly.
 */
export function partnersOf(run: OfflineRun, changer: Tried): Tried[] {
  const { candidate } = changer.item;
  return run.changers
    .filter(
      (c) =>
        c.item.candidate.file === candidate.file &&
        c.item.candidate.line !== candidate.line &&
        c.progress + changer.progress >= 3,
    )
    .sort((a, b) => b.progress - a.progress)
    .slice(0, PAIR_WITH);
}

/**
 * The pairs strategy: each of two edits moved the failure, so together they may be the fix.
 * Whether a pair validated.
 */
export async function tryPairs(run: OfflineRun, changer: Tried, partners: Tried[]): Promise<boolean> {
  const { bug, budget } = run;
  const { item, outcome } = changer;
  const { candidate } = item;
  for (const other of partners) {
    if (run.pairsTried >= MAX_PAIRS || budget.exhausted()) break;
    run.pairsTried++;
    const edits = [...other.item.candidate.edits, ...candidate.edits];
    const pair = await attempt(
      run,
      {
        hypothesis: `Two places are wrong together: ${other.item.candidate.claim}; and ${candidate.claim}. Each edit alone changed the failure: with the first the test ended with ${code(clip(other.outcome, 100))}, with the second with ${code(clip(outcome, 100))}.`,
        claim: `${capitalize(other.item.candidate.claim)}. ${claimOf(candidate)}`,
        prediction: `With both edits, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}).`,
        experiment: formatEditExperiment(edits),
      },
      edits,
      candidate.file,
      bug.primaryTest,
      other.item,
    );
    if (pair.validation?.plausible) return true;
  }
  return false;
}
