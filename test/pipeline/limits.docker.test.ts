import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import type { TestRun } from "../../src/lang/types.js";
import { fixLocally, fixture, watched, type Seen } from "./helpers.js";

/*
 * Scaled limits in every phase, on a real run (Docker sandbox, real pytest, the offline engine):
 * three failing tests loop forever. The sandbox's limit is waited for once, in the baseline;
 * every later run gets limits scaled from what the tests took. Assertions are on the limits used
 * and the hangs paid, never on wall-clock time (bench/ measures that).
 */

const FULL_MS = 40_000;
const HUNG = ["test_from_three", "test_from_five", "test_from_one"].map((t) => `tests/test_steps.py::${t}`);

const runsOf = (seen: Seen[]) => seen.filter((s) => s.call === "runTests" || s.call === "coverage");

/** The TestTimeout failures of a run (or a coverage report's failures), with the limit they hit. */
function hangs(s: Seen): { test: string; message: string }[] {
  const result = s.result as Partial<TestRun> & {
    failures?: Record<string, { type: string; message: string }>;
  };
  const failures = result?.tests
    ? result.tests.flatMap((t) => (t.failure ? [[t.id, t.failure] as const] : []))
    : Object.entries(result?.failures ?? {});
  return failures
    .filter(([, f]) => f.type === "TestTimeout")
    .map(([test, f]) => ({ test, message: f.message }));
}

describe("a repository whose failing tests loop forever (docker)", () => {
  it("waits the sandbox's limit once, then every run of the job uses limits scaled from the baseline", async () => {
    const seen: Seen[] = [];
    const config = loadConfig({ ...process.env, HYPOFIX_SANDBOX_TIMEOUT_MS: String(FULL_MS) });
    const { result, patch } = await fixLocally(fixture("hang-loops"), createOfflineEngine(), {
      backend: "docker",
      config,
      makeRuntime: watched(seen, FULL_MS),
    }).outcome;
    expect(result.status).toBe("fixed");
    expect(patch).toContain("+    while n > 0:");
    expect([...result.failingTests].sort()).toEqual([...HUNG].sort());

    const [baseline, ...later] = runsOf(seen);
    // The baseline: the first hang costs half the run's limit, the later ones the short limit after a hang.
    expect(baseline?.options?.testTimeoutMs).toBeUndefined();
    expect(hangs(baseline!).map((h) => h.message)).toEqual([
      "the test did not finish within 20s and was stopped",
      "the test did not finish within 5s and was stopped",
      "the test did not finish within 5s and was stopped",
    ]);
    // Every later run (reruns, coverage, validation, revalidation) got a scaled limit per test and per run.
    expect(later.length).toBeGreaterThan(3);
    // (2 s, or 5 times the slowest test, plus the baseline's start-up: well under the 20 s it waited)
    for (const s of later) {
      expect(s.options?.testTimeoutMs).toBeLessThan(FULL_MS / 4);
      expect(s.options?.timeoutMs).toBeLessThan(FULL_MS);
    }
    const experiments = seen.filter((s) => ["observe", "trace", "evidence"].includes(s.call));
    expect(experiments.length).toBeGreaterThan(0);
    for (const s of experiments) expect(s.options?.timeoutMs).toBeLessThan(FULL_MS / 4);
    // No later run waited 20 s (or 5 s) for a hang again.
    const laterHangs = later.flatMap(hangs);
    expect(laterHangs.length).toBeGreaterThan(0);
    for (const h of laterHangs) expect(h.message).not.toMatch(/within (20|5)s/);
    // A hang recognised on the first rerun is not rerun again: each hung test reran once (the
    // reruns are the runs before localization's coverage run).
    const reproducing = later.slice(
      0,
      later.findIndex((s) => s.call === "coverage"),
    );
    const reruns = reproducing.filter((s) => s.tests?.some((t) => HUNG.includes(t)));
    expect(reruns).toHaveLength(1);
    expect(reruns[0]?.tests).toEqual(expect.arrayContaining(HUNG));
    expect(result.confidence.reproduced).toBe(true);
  }, 300_000);
});
