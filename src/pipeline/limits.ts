import { experimentTimeoutMs } from "../debug/budget.js";
import type { TestRun } from "../lang/types.js";
import type { RunDefaults } from "./job-runtime.js";

/*
 * The job's time limits, scaled from the baseline. Before it, nothing is measured and a run gets
 * the sandbox's limit (HYPOFIX_SANDBOX_TIMEOUT_MS). After it, every run of the job (reruns, the
 * coverage run, experiments, validation, revalidation) gets limits of a few times what the tests
 * took, so a test that hangs costs its full wait once, in the baseline, and seconds afterwards.
 */

export interface JobLimits {
  /** One test's limit: 5 times the slowest test that finished (at least 2 s), plus start-up (budget.ts). */
  testMs: number;
  /** The whole suite's: 5 times its finished tests' time plus start-up, plus `testMs` per hung test, plus 10 s. */
  suiteMs: number;
  /** Start-up and collection of one run (the baseline's time outside its tests). */
  startupMs: number;
  /** The sandbox's limit, which no scaled limit exceeds. */
  maxMs: number;
}

const MIN_SUITE_MS = 15_000;
const SUITE_TIMES = 5;
const SUITE_SLACK_MS = 10_000;

/** The limits a baseline's measurements give, never above the sandbox's `maxMs`. */
export function scaledLimits(baseline: TestRun, maxMs: number): JobLimits {
  const hung = baseline.tests.filter((t) => t.failure?.type === "TestTimeout");
  const testsMs = baseline.tests.reduce((sum, t) => sum + t.durationMs, 0);
  const finishedMs = testsMs - hung.reduce((sum, t) => sum + t.durationMs, 0);
  const startupMs = Math.max(0, baseline.durationMs - testsMs);
  const testMs = Math.min(maxMs, experimentTimeoutMs(baseline));
  const suiteMs = SUITE_TIMES * (finishedMs + startupMs) + hung.length * testMs + SUITE_SLACK_MS;
  return {
    testMs,
    suiteMs: Math.round(Math.min(maxMs, Math.max(MIN_SUITE_MS, suiteMs))),
    startupMs: Math.round(startupMs),
    maxMs,
  };
}

/**
 * Every run gets `testMs` per test; a run of the suite `suiteMs`, a run of n tests n × `testMs`
 * plus start-up (at most `suiteMs`). A caller's own limits win (experiments set theirs).
 */
export function limitDefaults(limits: JobLimits): RunDefaults {
  return (tests, options) => ({
    ...options,
    testTimeoutMs: options.testTimeoutMs ?? limits.testMs,
    timeoutMs:
      options.timeoutMs ??
      (tests === undefined
        ? limits.suiteMs
        : Math.min(limits.suiteMs, tests.length * limits.testMs + 2 * limits.startupMs + SUITE_SLACK_MS)),
  });
}
