import { UserError } from "../errors.js";
import type { Runtime, TestResult, TestRun } from "../lang/types.js";
import type { Result } from "../result.js";
import { withRunDefaults } from "./job-runtime.js";
import { limitDefaults, scaledLimits, type JobLimits } from "./limits.js";
import { orderDependence, type OrderDependence } from "./order.js";

/** The failure type of a test the runtime stopped at its time limit. */
const TIMEOUT = "TestTimeout";

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

/**
 * Reruns the failing tests `times` times before any repair: a test that passes sometimes is
 * flaky. A test that hung before (`hung`: in the baseline) and hangs again on the first rerun is
 * a hang recognised: it is not waited for again, and counts as failing on the later reruns.
 */
export async function reproduce(
  runtime: Runtime,
  tests: string[],
  times: number,
  hung: ReadonlySet<string> = new Set(),
): Promise<Reproduction> {
  const failures = new Map<string, number>(tests.map((t) => [t, 0]));
  const hangs = new Set<string>();
  for (let i = 0; i < times; i++) {
    const ids = tests.filter((t) => !hangs.has(t));
    const run = ids.length > 0 ? await runtime.runTests(ids) : undefined;
    for (const t of run?.tests ?? []) {
      if (isFailure(t) && failures.has(t.id)) failures.set(t.id, failures.get(t.id)! + 1);
      if (i === 0 && hung.has(t.id) && t.failure?.type === TIMEOUT) hangs.add(t.id);
    }
    if (i > 0) for (const t of hangs) failures.set(t, failures.get(t)! + 1);
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
  /** Failing tests that fail only after other tests (every later run runs those first). */
  orderDependent: OrderDependence[];
  /** The job's limits, scaled from the baseline: every later run gets them. */
  limits: JobLimits;
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
  unlimited: Runtime,
  options: { tests: string[]; suiteIds: string[] | undefined; reruns: number; maxMs: number },
): Promise<ReproducePhase> {
  const baseline = await unlimited.runTests(options.suiteIds);
  // From here on no run waits for the sandbox's whole limit: every limit is scaled from the baseline.
  const limits = scaledLimits(baseline, options.maxMs);
  const runtime = withRunDefaults(unlimited, limitDefaults(limits));
  // The tests the suite ran, in its order: what an order-dependent failure may need before it.
  const suiteOrder = baseline.tests.map((t) => t.id);
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
    const hung = (id: string) => baseline.tests.some((t) => t.id === id && t.failure?.type === TIMEOUT);
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
  const hungBefore = new Set(baseline.tests.filter((t) => t.failure?.type === TIMEOUT).map((t) => t.id));
  const alone = await reproduce(runtime, failingNow, options.reruns, hungBefore);
  // Every test here failed in the baseline: one that passes on any rerun disagrees with it.
  const flaky = alone.flaky.map((test): Flakiness => ({ test, kind: "intermittent" }));
  const orderDependent: OrderDependence[] = [];
  for (const test of alone.passing) {
    const index = suiteOrder.indexOf(test);
    const type = baseline.tests.find((t) => t.id === test)?.failure?.type;
    const found = await orderDependence(
      runtime,
      { test, ...(type ? { type } : {}) },
      index > 0 ? suiteOrder.slice(0, index) : [],
      options.reruns,
    );
    if (found) orderDependent.push(found);
    else flaky.push({ test, kind: "intermittent" });
  }
  const reruns = withOrderDependent(alone, orderDependent);
  const partial = { failingTests: requested, suiteBefore, reruns };
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
    reproduced: {
      baseline,
      requested,
      // In the order asked for (or the suite's): the first is the one debugged.
      failingTests: failingNow.filter((t) => reruns.reproduced.includes(t)),
      orderDependent,
      suiteBefore,
      reruns,
      limits,
    },
  };
}

/** The reruns, counting an order-dependent test's reruns after the tests it needs as its reruns. */
function withOrderDependent(alone: Reproduction, found: OrderDependence[]): Reproduction {
  if (found.length === 0) return alone;
  const ids = new Set(found.map((f) => f.test));
  return {
    reproduced: [...alone.reproduced, ...found.map((f) => f.test)],
    flaky: alone.flaky,
    passing: alone.passing.filter((t) => !ids.has(t)),
    failedRuns: alone.reproduced.length > 0 ? alone.failedRuns : alone.totalRuns,
    totalRuns: alone.totalRuns,
  };
}

/**
 * Why a test that failed in the baseline is not a failure to fix: it passed on a rerun, alone or
 * after the tests before it (a failure that repeats after them is reproduced with them: order.ts).
 */
export interface Flakiness {
  test: string;
  kind: "intermittent";
}

function describeFlakiness(f: Flakiness, reruns: number): string {
  return `${f.test} failed in the suite and passed on some of its reruns (${reruns} alone, then after the tests before it)`;
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
