import { checkedOn } from "../checked-on.js";
import type { Observation, Runtime } from "../../lang/types.js";
import { applyEdits, NO_EXCEPTION, type Edit } from "../../lang/experiment.js";
import type { Budget } from "../budget.js";
import type { BugContext, EngineRun, StepRecord, Validate, Validation } from "../types.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun } from "./state.js";
import { describeMiss } from "./words.js";

/** A hypothesis as the strategies state it; the attempt adds what the experiment showed. */
export type Hypothesis = Omit<
  StepRecord,
  "observation" | "conclusion" | "done" | "note" | "kind" | "durationMs"
>;

export interface Attempted {
  step: StepRecord;
  passed: boolean;
  validation?: Validation;
  obs: Observation;
}

/**
 * Runs one hypothesis (one edit, or several together) in `test` and, when the test passes,
 * validates the edits as a patch; the step and any validated candidate join the run's logs.
 */
export async function attempt(
  run: OfflineRun,
  step: Hypothesis,
  edits: Edit[],
  file: string,
  test: string,
  at: PlannedHypothesis,
): Promise<Attempted> {
  const { bug, budget, steps } = run;
  const obs = await observe(run.runtime, budget, bug, step.experiment, test);
  const passed = obs.observation.includes(NO_EXCEPTION);
  const record: StepRecord = {
    ...step,
    observation: obs.observation,
    conclusion: passed ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
    done: false,
    note: passed ? "the failing test passes with this edit" : describeMiss(obs, run.failureText),
    kind: obs.kind,
    durationMs: obs.durationMs,
    file,
  };
  steps.push(record);
  if (!passed) return { step: record, passed, obs };
  record.done = true;
  const outcome = await toCandidate(edits, at, steps.length - 1, run.validate, bug);
  if (!outcome) {
    record.note = "the failing test passes, but the edit does not apply to the file as a patch";
    record.done = false;
    return { step: record, passed, obs };
  }
  run.candidates.push(outcome);
  if (outcome.validation.plausible) {
    record.decisive = true;
    record.note = `the failing test passes with this edit, and as a patch it passes ${checkedOn(outcome.validation)}`;
  } else {
    record.note = `the failing test passes, but as a patch ${outcome.validation.rejectedBecause ?? `${outcome.validation.testsFailed} tests fail`}`;
  }
  return { step: record, passed, validation: outcome.validation, obs };
}

/** One experiment in `test`, counted against the budget and limited by what is left of it. */
export async function observe(
  runtime: Runtime,
  budget: Budget,
  bug: BugContext,
  experiment: string,
  test: string,
): Promise<Observation> {
  budget.spendExperiment();
  return runtime.observe(test, experiment, {
    timeoutMs: Math.max(1_000, Math.min(bug.experimentTimeoutMs, budget.remainingMs())),
  });
}

/** The edits as a patch of their file, validated against the whole suite. */
async function toCandidate(
  edits: Edit[],
  at: PlannedHypothesis,
  fromStep: number,
  validate: Validate,
  bug: BugContext,
): Promise<EngineRun["candidates"][number] | undefined> {
  const file = at.candidate.file;
  // A fix may span files (the same slip copied into two modules): one file edit per file touched.
  const files = [...new Set(edits.map((e) => e.file ?? file))];
  const fileEdits = [];
  for (const f of files) {
    const before = await bug.readSource(f);
    const applied = applyEdits(
      before,
      edits.filter((e) => (e.file ?? file) === f),
    );
    if (applied.problems.length > 0) return undefined;
    fileEdits.push({ file: f, before, after: applied.source });
  }
  const candidate = {
    edits: fileEdits,
    fromStep,
    at: { file, line: at.candidate.line, ...(at.fn ? { function: at.fn.qualname } : {}) },
  };
  return { candidate, validation: await validate(candidate) };
}
