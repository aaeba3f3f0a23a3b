import type { Observation } from "../../lang/types.js";
import { renderValues } from "../../lang/experiment.js";
import { clip, codeSpan as code } from "../../text.js";
import { observe } from "./attempt.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun } from "./state.js";
import { describeValues } from "./words.js";

/**
 * The probe strategy: before a line is edited, a debugger experiment records the real values
 * there, in the test it is judged by (the base's still-failing test once there is a base), once
 * per test and line. Returns the values in words for the line's hypotheses ("" when there is
 * nothing to show), or undefined when that test never reaches the line: a line the failing
 * test never reaches cannot be the fault it shows.
 */
export async function probeLine(run: OfflineRun, item: PlannedHypothesis): Promise<string | undefined> {
  const { bug, probed } = run;
  const { susp, rank, text, fn } = item;
  const probeTest = run.base?.test ?? bug.primaryTest;
  const lineKey = `${probeTest} ${susp.file}:${susp.line}`;
  // The coverage run already says whether the judging test runs this line: no experiment for one it never runs.
  if (!probed.has(lineKey) && item.suspicious && bug.reaches?.(probeTest, susp.file, susp.line) === false) {
    probed.set(lineKey, undefined);
  }
  if (!probed.has(lineKey)) {
    const where = `${code(`${susp.file}:${susp.line}`)}${fn ? ` in ${code(fn.qualname)}` : ""}`;
    const probe = item.suspicious ? (item.probe?.expr ?? undefined) : undefined;
    if (!probe) {
      probed.set(lineKey, "");
    } else {
      const experiment = `b ${susp.file}:${susp.line} ;; c ;; p ${probe}`;
      // The evidence run already saw the values there in the first failing test: no run needed.
      const seenThere = item.probe?.values && item.probe.total ? item.probe : undefined;
      const obs: Observation =
        seenThere && probeTest === bug.primaryTest
          ? {
              kind: "debugger",
              experiment,
              observation: renderValues(seenThere.values!, seenThere.total!),
              durationMs: 0,
            }
          : await observe(run.runtime, run.budget, bug, experiment, probeTest);
      const reached =
        obs.kind === "debugger" && !/not reached|never reached|was not hit|not hit/i.test(obs.observation);
      probed.set(
        lineKey,
        reached ? ` ${describeValues(probe, obs.observation)}` : obs.kind === "invalid" ? "" : undefined,
      );
      // A probe gathers values and tests no hypothesis: reaching the line decides nothing about a fault.
      run.steps.push({
        role: "probe",
        hypothesis: `SBFL points at ${where}: ${code(text.trim())}, ranked #${rank + 1} of the lines a patch may change (${susp.failed} failing and ${susp.passed} passing tests ran it; score ${susp.score.toFixed(2)}).`,
        prediction: `The failing test ${code(probeTest)} reaches line ${susp.line}, and ${code(probe)} there shows the state this line computes with.`,
        experiment,
        observation: obs.observation,
        conclusion: reached ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
        done: false,
        note: reached
          ? `line ${susp.line} runs during the failing test; the values above are what its candidate edits are judged against`
          : `the experiment did not show line ${susp.line} running: ${clip(obs.observation, 160)}`,
        kind: obs.kind,
        durationMs: obs.durationMs,
      });
    }
  }
  return probed.get(lineKey);
}
