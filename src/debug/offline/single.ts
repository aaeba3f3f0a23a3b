import { formatEditExperiment, NO_EXCEPTION } from "../../lang/experiment.js";
import { clip, codeSpan as code } from "../../text.js";
import { attempt, type Attempted } from "./attempt.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun } from "./state.js";
import { claimOf, describeEdit } from "./words.js";

/**
 * The single-edit strategy: the candidate's edit alone, judged by the first failing test.
 * `seen` is the probe's values in words.
 */
export async function singleEdit(run: OfflineRun, item: PlannedHypothesis, seen: string): Promise<Attempted> {
  const { bug } = run;
  const { susp, text, candidate } = item;
  const claim = claimOf(candidate);
  const because = item.because ? ` ${item.because}` : "";
  const tried = await attempt(
    run,
    {
      hypothesis: `${claim}${because}${seen}`,
      claim,
      prediction: `With ${describeEdit(text, candidate.edits, susp.line)}, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}) instead of failing with ${code(clip(run.failureText, 120))}.`,
      experiment: formatEditExperiment(candidate.edits),
    },
    candidate.edits,
    candidate.file,
    bug.primaryTest,
    item,
  );
  return tried;
}
