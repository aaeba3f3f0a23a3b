import { UserError } from "../errors.js";
import type { Runtime, TestResult, TestRun } from "../lang/types.js";
import type { Result } from "../result.js";

export interface Reproduction {
  /** Tests that failed on every run. */
  reproduced: string[];
  /** Tests that failed on some runs and passed on others. */
  flaky: string[];
  /** Tests that passed every time. */
  passing: string[];
  failedRuns: number;
  totalRuns: number;
}

/** Reruns the failing tests `times` times before any repair: a test that passes sometimes is flaky. */
export async function reproduce(runtime: Runtime, tests: string[], times: number): Promise<Reproduction> {
  const failures = new Map<string, number>(tests.map((t) => [t, 0]));
  for (let i = 0; i < times; i++) {
    const run = await runtime.runTests(tests);
    for (const t of run.tests) {
      if (isFailure(t) && failures.has(t.id)) failures.set(t.id, failures.get(t.id)! + 1);
    }
  }
  const counts = [...failures.entries()];
  return {
    reproduced: counts.filter(([, n]) => n === times).map(([t]) => t),
    flaky: counts.filter(([, n]) => n > 0 && n < times).map(([t]) => t),
    passing: counts.filter(([, n]) => n === 0).map(([t]) => t),
    failedRuns: Math.min(...counts.map(([, n]) => n), times),
    totalRuns: times,
  };
}

/** The reproduce phase's outcome: the job ends here (with a status and why), or repair goes on. */
export type ReproducePhase =
  | { end: { status: Result["status"]; reason: string; progress: string }; partial: Partial<Reproduced> }
  | { end?: undefined; reproduced: Reproduced };

export interface Reproduced {
  /** Tests that failed in the baseline but not on every rerun, and why. */
  flaky?: Flakiness[];
  /** The whole suite before any patch: what every patch is compared to. */
  baseline: TestRun;
  /** The tests the job is about (asked for, or every failing one). */
  requested: string[];
  failingTests: string[];
  suiteBefore: { passed: number; failed: number };
  reruns: Reproduction;
}

/**
 * Runs the suite once (the baseline), resolves the tests the job is about, and
 * reruns the failing ones to tell real failures from flaky ones.
 */
export async function reproducePhase(
  runtime: Runtime,
  options: { tests: string[]; suiteIds: string[] | undefined; reruns: number },
): Promise<ReproducePhase> {
  const baseline = await runtime.runTests(options.suiteIds);
  if (baseline.tests.length === 0 && baseline.errors.length > 0) {
    return {
      end: {
        status: "error",
        reason: `${runtime.language.testRunner} could not run the suite: ${firstLine(baseline.errors[0]!)}`,
        progress: "the test suite could not run",
      },
      partial: {},
    };
  }
  const failedInBaseline = baseline.tests.filter(isFailure).map((t) => t.id);
  let requested = options.tests;
  if (requested.length > 0) {
    const known = new Set(baseline.tests.map((t) => t.id));
    const extra = requested.filter((t) => !known.has(t));
    if (extra.length > 0) {
      const run = await runtime.runTests(extra);
      if (run.tests.length === 0) {
        throw new UserError(
          `test not found: ${extra.join(", ")}`,
          `${runtime.language.testRunner} says: ${firstLine(run.errors[0] ?? "no such test")}`,
        );
      }
      baseline.tests.push(...run.tests.filter((t) => !known.has(t.id)));
    }
  } else {
    // The first is the one debugged: a test that hung goes last, as every experiment on it
    // costs the whole time limit and a hang is rarely the failure a job is about.
    const hung = (id: string) => baseline.tests.some((t) => t.id === id && t.failure?.type === "TestTimeout");
    requested = [...failedInBaseline.filter((id) => !hung(id)), ...failedInBaseline.filter(hung)];
  }
  const suiteBefore = counts(baseline);
  const failingNow = requested.filter((id) => baseline.tests.find((t) => t.id === id && isFailure(t)));
  if (failingNow.length === 0) {
    return {
      end: {
        status: "not-reproduced",
        reason:
          options.tests.length > 0
            ? `${requested.join(", ")} passed in the sandbox`
            : `the suite has no failing test (${baseline.tests.length} tests ran)`,
        progress: "no failing test",
      },
      partial: { failingTests: requested, suiteBefore },
    };
  }
  const reruns = await reproduce(runtime, failingNow, options.reruns);
  const partial = { failingTests: requested, suiteBefore, reruns };
  // Every test here failed in the baseline: one that passes on any rerun disagrees with it.
  const flaky = [
    ...reruns.flaky.map((test): Flakiness => ({ test, kind: "intermittent" })),
    ...(await passingAlone(runtime, baseline, reruns.passing, options.suiteIds)),
  ];
  if (flaky.length > 0) {
    return {
      end: {
        status: "flaky",
        reason: flaky.map((f) => describeFlakiness(f, reruns.totalRuns)).join("; "),
        progress: `flaky: ${flaky.map((f) => `${f.test} (${f.kind})`).join(", ")}`,
      },
      partial: { ...partial, flaky },
    };
  }
  return {
    reproduced: { baseline, requested, failingTests: reruns.reproduced, suiteBefore, reruns },
  };
}

/** Why a test that failed in the baseline is not a failure to fix. */
export interface Flakiness {
  test: string;
  /** `order-dependent`: fails after `precededBy` (or the suite before it) and passes alone. */
  kind: "intermittent" | "order-dependent";
  precededBy?: string;
}

function describeFlakiness(f: Flakiness, reruns: number): string {
  if (f.kind === "order-dependent") {
    return `order-dependent: ${f.test} fails when run after ${f.precededBy ?? "the tests before it"} and passes alone`;
  }
  return `${f.test} passed on some of ${reruns} reruns`;
}

/**
 * Tests that failed in the suite but passed every rerun alone. Run after the test
 * that preceded them in the suite (then after the whole suite again): failing there
 * again makes them order-dependent; passing everywhere, intermittent.
 */
async function passingAlone(
  runtime: Runtime,
  baseline: TestRun,
  tests: string[],
  suiteIds: string[] | undefined,
): Promise<Flakiness[]> {
  const out: Flakiness[] = [];
  let suiteAgain: TestRun | undefined;
  for (const test of tests) {
    const index = baseline.tests.findIndex((t) => t.id === test);
    const precededBy = index > 0 ? baseline.tests[index - 1]!.id : undefined;
    if (precededBy) {
      const pair = await runtime.runTests([precededBy, test]);
      if (pair.tests.some((t) => t.id === test && isFailure(t))) {
        out.push({ test, kind: "order-dependent", precededBy });
        continue;
      }
    }
    suiteAgain ??= await runtime.runTests(suiteIds);
    const failsInSuite = suiteAgain.tests.some((t) => t.id === test && isFailure(t));
    out.push(
      failsInSuite
        ? {
            test,
            kind: "order-dependent",
            ...(precededBy ? { precededBy: `the tests up to ${precededBy}` } : {}),
          }
        : { test, kind: "intermittent" },
    );
  }
  return out;
}

export function isFailure(t: TestResult): boolean {
  return t.outcome === "failed" || t.outcome === "error";
}

export function counts(run: TestRun): { passed: number; failed: number } {
  return {
    passed: run.tests.filter((t) => t.outcome === "passed").length,
    failed: run.tests.filter(isFailure).length,
  };
}

export function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
