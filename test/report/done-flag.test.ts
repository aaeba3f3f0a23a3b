import { describe, expect, it } from "vitest";
import { renderReport, type ReportMeta } from "../../src/report/render.js";
import { resultSchema, type Result } from "../../src/result.js";
import { confidenceFlags } from "../helpers/markdown.js";

/*
 * "debugging concluded" vouches for the patch that is shown: `<DONE>` counts at the hypothesis
 * whose edit is the patch. Here step 2's edit made the failing test pass but broke the suite
 * (`<DONE>` there), and step 4's edit is the patch.
 */
const DIFF =
  "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n";

function run(patchFrom: number | undefined, doneAt: number[]): Result {
  const step = (i: number) => ({
    hypothesis: `Hypothesis ${i + 1}.`,
    prediction: "The test passes.",
    experiment: `REPLACE(calc.py:2, "a - b", "edit${i + 1}") AND RUN`,
    observation: i % 2 === 1 ? "[No exception triggered]" : "AssertionError: 0 != 3",
    conclusion: i % 2 === 1 ? "supported" : "rejected",
    done: doneAt.includes(i),
  });
  return resultSchema.parse({
    status: "fixed",
    reason: "a patch passes the failing test",
    failingTests: ["tests/test_calc.py::test_add"],
    localization: [],
    steps: [0, 1, 2, 3].map(step),
    patches: [
      {
        diff: DIFF,
        plausible: true,
        testsRun: 3,
        testsFailed: 0,
        ...(patchFrom !== undefined ? { fromStep: patchFrom } : {}),
      },
    ],
    confidence: {
      done: true,
      reproduced: true,
      suitePasses: true,
      localizationAgreement: 1,
      audit: "not-run",
    },
    audit: { claims: [], behaviourChanges: [] },
    timings: {},
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
  });
}

const META: ReportMeta = {
  reproduction: { failedRuns: 3, totalRuns: 3 },
  maxSteps: 4,
  experiments: 4,
  durationMs: 1,
};

describe("the debugging-concluded flag names the patch's own hypothesis", () => {
  it("✅ at the step whose edit is the patch, not the first `<DONE>` of the run", () => {
    const report = renderReport(run(3, [1, 3]), META);
    expect(confidenceFlags(report)["debugging concluded"]).toEqual({
      icon: "✅",
      value: "`<DONE>` at step 4 of 4",
      evidence:
        'hypothesis 4, whose edit is the patch: `REPLACE(calc.py:2, "a - b", "edit4") AND RUN` gave `[No exception triggered]`',
    });
    // The cause line leads with the same hypothesis.
    expect(report).toContain("**Cause** (hypothesis 4)");
  });

  it("⚠️ when the patch's own step did not conclude, naming the step whose `<DONE>` vouches for another edit", () => {
    const flag = confidenceFlags(renderReport(run(2, [1]), META))["debugging concluded"];
    expect(flag?.icon).toBe("⚠️");
    expect(flag?.value).toBe("the patch is step 3's edit, which did not conclude");
    expect(flag?.evidence).toContain("`<DONE>` at step 2 vouches for another edit");
    expect(flag?.evidence).toContain('"edit2"');
  });

  it("⚠️ when the patch comes from no step at all", () => {
    const flag = confidenceFlags(renderReport(run(undefined, [1]), META))["debugging concluded"];
    expect(flag).toMatchObject({ icon: "⚠️", value: "the patch comes from no step" });
    expect(flag?.evidence).toContain("`<DONE>` at step 2 vouches for another edit");
  });
});
