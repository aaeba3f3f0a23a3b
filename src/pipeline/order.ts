import type { RunOptions, Runtime, TestRun } from "../lang/types.js";
import type { RunDefaults } from "./job-runtime.js";

/*
 * Order-dependent failures: a test that fails in the suite, passes alone, and fails again
 * every time it runs after some of the tests before it (state one test leaves behind: a
 * mutable default, a class attribute, a module-level cache). That is a deterministic bug,
 * reproduced by running those tests first; a failure that changes between identical runs is
 * flaky. Like iDFlakies and iFixFlakies, the tests that matter are found by searching the
 * tests that ran before it, in their order.
 */

/** A failing test that fails only after `precededBy` (in this order) and passes alone. */
export interface OrderDependence {
  test: string;
  /** The fewest tests before it (in suite order) after which it fails on every rerun. */
  precededBy: string[];
  /** Reruns after `precededBy`, all failed. */
  reruns: number;
}

/** How many runs the search may spend on one test's preceding tests. */
const MAX_TRIALS = 24;

/**
 * The fewest of `tests` (order kept) after which `fails` holds, given it holds after all of
 * them. One needed test at a time, latest first: a binary search for the shortest run of the
 * tests before it that still fails names the last test that run needs; then the same before
 * that test, until the tests found fail on their own (one polluter among n: about log2(n) + 1
 * runs). Every answer is a list `fails` held for; at `maxTrials` runs, the shortest so far.
 */
export async function minimalPreceding(
  tests: string[],
  fails: (before: string[]) => Promise<boolean>,
  maxTrials = MAX_TRIALS,
): Promise<string[]> {
  let trials = 0;
  const tried = new Map<string, boolean>();
  const check = async (before: string[]) => {
    const key = before.join("\0");
    if (!tried.has(key)) {
      trials += 1;
      tried.set(key, await fails(before));
    }
    return tried.get(key)!;
  };
  if (tests.length === 0) return [];
  const needed: string[] = [];
  // Invariant: the test fails after [...pool, ...needed].
  let pool = tests;
  for (;;) {
    if (needed.length > 0) {
      if (pool.length === 0) return needed;
      if (trials >= maxTrials) return [...pool, ...needed];
      if (await check(needed)) return needed;
    }
    let lo = 1;
    let hi = pool.length;
    while (lo < hi && trials < maxTrials) {
      const mid = Math.floor((lo + hi) / 2);
      if (await check([...pool.slice(0, mid), ...needed])) hi = mid;
      else lo = mid + 1;
    }
    if (lo < hi) return [...pool.slice(0, hi), ...needed];
    needed.unshift(pool[lo - 1]!);
    pool = pool.slice(0, lo - 1);
  }
}

/**
 * Whether a test that failed in the suite (after `ranBefore`) and passed alone is order-dependent:
 * it fails again after the tests before it, a search finds the fewest of them it needs, and it
 * fails after those on every one of `times` reruns. Undefined: it passed in some run in that order
 * (the failure changes between identical runs: flaky).
 */
export async function orderDependence(
  runtime: Runtime,
  failure: { test: string; type?: string },
  ranBefore: string[],
  times: number,
  options: RunOptions = {},
): Promise<OrderDependence | undefined> {
  const { test } = failure;
  if (ranBefore.length === 0) return undefined;
  const fails = async (before: string[]) => {
    const run = await runtime.runTests([test], { ...options, before });
    return failsAs(run, failure);
  };
  if (!(await fails(ranBefore))) return undefined;
  const precededBy = await minimalPreceding(ranBefore, fails);
  for (let i = 0; i < times; i++) if (!(await fails(precededBy))) return undefined;
  return { test, precededBy, reruns: times };
}

/** The test failed in this run, the way it failed in the suite (same exception type, when known). */
function failsAs(run: TestRun, failure: { test: string; type?: string }): boolean {
  const result = run.tests.find((t) => t.id === failure.test);
  if (!result || (result.outcome !== "failed" && result.outcome !== "error")) return false;
  return failure.type === undefined || result.failure?.type === failure.type;
}

/**
 * Every later run of the job reproduces the order-dependent failures: a run of some tests runs
 * first the tests those of them need before them, in suite order (and gets their time on top of
 * its limit); the whole suite runs in its own order already. A caller's own `before` wins.
 */
export function precedingDefaults(
  found: OrderDependence[],
  durationMs: (test: string) => number,
): RunDefaults {
  const needs = new Map(found.map((f) => [f.test, f.precededBy]));
  return (tests, options) => {
    if (tests === undefined || options.before !== undefined) return options;
    const asked = new Set(tests);
    const before = [...new Set(tests.flatMap((t) => needs.get(t) ?? []))].filter((t) => !asked.has(t));
    if (before.length === 0) return options;
    const extra = before.reduce((sum, t) => sum + 2 * durationMs(t), 0);
    return {
      ...options,
      before,
      ...(options.timeoutMs !== undefined ? { timeoutMs: Math.round(options.timeoutMs + extra) } : {}),
    };
  };
}
