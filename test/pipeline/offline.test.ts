import { describe, expect, it } from "vitest";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { markdownProblems } from "../helpers/markdown.js";
import { resultSchema } from "../../src/result.js";
import { example, fixLocally, fixture } from "./helpers.js";

describe("runFix with the offline engine (local sandbox, real pytest)", () => {
  it("fixes the bundled example with a validated patch and a log of real observations", async () => {
    const { outcome, progress } = fixLocally(example("bank-account"), createOfflineEngine());
    const { result, report, patch } = await outcome;
    expect(resultSchema.parse(result)).toEqual(result);
    expect(result.status).toBe("fixed");
    expect(result.failingTests).toEqual(["tests/test_bank.py::test_withdraw_entire_balance"]);
    expect(patch).toContain("-        return amount < available\n+        return amount <= available");
    expect(result.patches[0]).toMatchObject({
      plausible: true,
      testsRun: 7,
      testsFailed: 0,
      brokenTests: [],
    });
    expect(result.confidence).toMatchObject({ done: true, reproduced: true, suitePasses: true });
    const done = result.steps.filter((s) => s.done);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ conclusion: "supported", observation: "[No exception triggered]" });
    // The debugger experiment at the line shows the real value before any edit.
    expect(result.steps).toContainEqual(
      expect.objectContaining({
        experiment: "b bank.py:22 ;; c ;; p amount < available",
        observation: "False",
      }),
    );
    expect(report).toContain("**Observation:** `False`");
    expect(markdownProblems(report)).toEqual([]);
    expect(progress.map((l) => l.split(":")[0])).toEqual([
      "environment",
      "sandbox",
      "reproduce",
      "localize",
      "debug",
      "validate",
      "revalidate",
      "signals",
    ]);
  });

  it("/fix <text> with the offline engine: recorded in the report, which says the engine cannot use it", async () => {
    const constraint = "do not touch withdraw";
    const { result, report, firstScreen } = await fixLocally(example("bank-account"), createOfflineEngine(), {
      constraint,
    }).outcome;
    expect(result.constraint).toEqual({ text: constraint, used: false });
    for (const text of [report, firstScreen!]) {
      expect(text).toContain("**Maintainer's constraint** (from `/fix`): do not touch withdraw");
      expect(text).toContain("The offline engine cannot use it");
    }
    // Without one, no line at all.
    const plain = await fixLocally(example("bank-account"), createOfflineEngine()).outcome;
    expect(plain.result.constraint).toBeUndefined();
    expect(plain.report).not.toContain("Maintainer's constraint");
  });

  it("fixes an off-by-one loop bound", async () => {
    const { result, patch } = await fixLocally(fixture("fix-loop"), createOfflineEngine()).outcome;
    expect(result.status).toBe("fixed");
    expect(patch).toMatch(/^\+ {4}for i in range\(.*len\(values\).*\):$/m);
    expect(result.patches[0]?.brokenTests).toEqual([]);
  });

  it("reports a suite with no failing test as not reproduced", async () => {
    const { result, report } = await fixLocally(fixture("fix-green"), createOfflineEngine()).outcome;
    expect(result.status).toBe("not-reproduced");
    expect(result.reason).toMatch(/no failing test \(4 tests ran\)/);
    expect(result.patches).toEqual([]);
    expect(report).toContain("No failing test found");
  });

  it("reports a named test that passes here as not reproduced", async () => {
    const { result } = await fixLocally(fixture("fix-loop"), createOfflineEngine(), {
      tests: ["tests/test_stats.py::test_mean"],
    }).outcome;
    expect(result.status).toBe("not-reproduced");
    expect(result.reason).toContain("tests/test_stats.py::test_mean passed in the sandbox");
  });

  it("reports a test that passes on some reruns as flaky, never fixed", async () => {
    const { result, report } = await fixLocally(fixture("fix-flaky"), createOfflineEngine()).outcome;
    expect(result.status).toBe("flaky");
    expect(result.steps).toEqual([]);
    expect(report).toContain("is flaky: not fixed");
  });

  it("ends a repository with a syntax error with status error and pytest's words", async () => {
    const { result } = await fixLocally(fixture("fix-syntax"), createOfflineEngine()).outcome;
    expect(result.status).toBe("error");
    expect(result.reason).toMatch(/pytest could not run the suite: .*SyntaxError/);
    expect(result.patches).toEqual([]);
  });

  it("never patches outside the configured source paths", async () => {
    const { result } = await fixLocally(example("bank-account"), createOfflineEngine(), {
      repoConfig: { source_paths: ["src"] },
    }).outcome;
    expect(result.status).toBe("no-fix");
    expect(result.reason).toContain("outside the configured source paths");
    expect(result.patches).toEqual([]);
  });

  it("stops cleanly at the experiment budget", async () => {
    // The first edit tried here is not the fix (the values at the probed lines come free with the evidence run).
    const { result } = await fixLocally(fixture("fix-loop"), createOfflineEngine(), {
      repoConfig: { max_experiments: 1 },
    }).outcome;
    expect(result.status).toBe("no-fix");
    expect(result.reason).toContain("experiment budget of 1 used up");
    expect(result.steps.filter((s) => s.role !== "probe")).toHaveLength(1);
  });
});
