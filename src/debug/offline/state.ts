import type { Budget } from "../budget.js";
import type { Runtime } from "../../lang/types.js";
import type { Progress } from "../progress.js";
import type { BugContext, EngineRun, StepRecord, Validate } from "../types.js";
import type { PlannedHypothesis } from "./plan.js";

/** An edit that moved the failure on its own: half of a two-edit patch, perhaps. */
export interface Tried {
  item: PlannedHypothesis;
  /** What the failing test ended with under this edit alone. */
  outcome: string;
  progress: Progress;
}

/** One run of the offline engine: what it was given, and everything it changes as it goes. */
export interface OfflineRun {
  readonly bug: BugContext;
  readonly runtime: Runtime;
  readonly budget: Budget;
  readonly validate: Validate;
  /** The failure the first failing test shows, in words. */
  readonly failureText: string;
  /** The first failing test's file, where `progress` looks for the failing assertion. */
  readonly testFile: string;
  /** The step log, in order. */
  steps: StepRecord[];
  /** Validated candidates, in the order they were found. */
  candidates: EngineRun["candidates"];
  /** The hypotheses in the order they are tried; grows when a base is found. */
  queue: PlannedHypothesis[];
  /** Per judging test and line: the probe's values in words, "" when none, undefined when the test never reaches it. */
  probed: Map<string, string | undefined>;
  /** Edits that moved the failure, for two-edit patches. */
  changers: Tried[];
  pairsTried: number;
  /** Places already tried together as the same slip made twice. */
  twinned: Set<string>;
  /** An edit that made the first failing test pass while others still fail: later edits go on top. */
  base: { item: PlannedHypothesis; test: string } | undefined;
  /** Candidates of lines the first failing test never reached: a second failing test may reach them. */
  unreached: PlannedHypothesis[];
}

/** A run of `bug` that tries `queue` in order, nothing tried yet. */
export function startRun(
  bug: BugContext,
  runtime: Runtime,
  budget: Budget,
  validate: Validate,
  queue: PlannedHypothesis[],
): OfflineRun {
  return {
    bug,
    runtime,
    budget,
    validate,
    failureText: bug.failure ? `${bug.failure.type}: ${bug.failure.message}`.trim() : "the failure",
    testFile: bug.primaryTest.split("::")[0]!,
    steps: [],
    candidates: [],
    queue,
    probed: new Map(),
    changers: [],
    pairsTried: 0,
    twinned: new Set(),
    base: undefined,
    unreached: [],
  };
}

/** The run's result, stopped for `stop`. */
export function finish(run: OfflineRun, stop: "done" | "budget"): EngineRun {
  return { steps: run.steps, candidates: run.candidates, done: stop === "done", stop };
}
