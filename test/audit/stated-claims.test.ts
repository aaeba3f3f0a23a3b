import { describe, expect, it } from "vitest";
import { statedClaims } from "../../src/audit/stated-claims.js";
import { renderReport } from "../../src/report/render.js";
import { resultSchema } from "../../src/result.js";
import { PR_BODY, PR_BODY_CLAIMS } from "../helpers/pr-body.js";

describe("statedClaims (marked)", () => {
  it("yields exactly the prose claims: sentences joined across wrapped lines, and list items", () => {
    expect(statedClaims(PR_BODY)).toEqual(PR_BODY_CLAIMS);
  });

  it("keeps a period inside code from ending a sentence, and drops trailers", () => {
    expect(statedClaims("Uses `a.b. c` now. Signed-off-by: X <x@y>")).toEqual(["Uses `a.b. c` now."]);
    expect(statedClaims("A commit message whose subject\nwraps. Second sentence.")).toEqual([
      "A commit message whose subject wraps.",
      "Second sentence.",
    ]);
  });

  it("on a Hypofix report, audits the claims its audit table states and nothing else", () => {
    const result = resultSchema.parse({
      status: "fixed",
      failingTests: ["tests/t.py::test_a"],
      localization: [],
      steps: [],
      patches: [{ diff: "--- a/m.py\n+++ b/m.py\n", plausible: true, testsRun: 2, testsFailed: 0 }],
      confidence: {
        done: true,
        reproduced: true,
        suitePasses: true,
        localizationAgreement: 1,
        audit: "confirmed",
      },
      audit: {
        claims: [
          { text: "`f(2)` returns `4`.", evidence: "ran", verdict: "confirmed" },
          { text: "No other behaviour changes.", evidence: "ran", verdict: "confirmed" },
        ],
        behaviourChanges: [],
      },
      timings: {},
      usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
    });
    const report = renderReport(result, {
      reproduction: { failedRuns: 3, totalRuns: 3 },
      maxSteps: 3,
      experiments: 2,
      durationMs: 1000,
    });
    expect(statedClaims(`Fix f failing tests/t.py::test_a\n\n${report}`)).toEqual([
      "`f(2)` returns `4`.",
      "No other behaviour changes.",
    ]);
  });
});
