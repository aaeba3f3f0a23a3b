import { describe, expect, it } from "vitest";
import { flagPrecision, reportFlags } from "../../bench/lib/flags.js";
import { renderReport } from "../../src/report/render.js";
import { resultSchema } from "../../src/result.js";

const result = (tripped: boolean) =>
  resultSchema.parse({
    status: "fixed",
    reason: "a patch passes the failing test",
    failingTests: ["tests/test_a.py::test_a"],
    localization: [{ rank: 1, file: "a.py", function: "f", line: 2, score: 1, reason: "Ochiai" }],
    steps: [
      {
        hypothesis: "H.",
        prediction: "P.",
        experiment: 'REPLACE(a.py:2, "<", "<=") AND RUN',
        observation: "[No exception triggered]",
        conclusion: "supported",
        done: true,
      },
    ],
    patches: [
      { diff: "--- a/a.py\n+++ b/a.py\n", plausible: true, testsRun: 3, testsFailed: 0, fromStep: 0 },
    ],
    confidence: {
      done: true,
      reproduced: true,
      suitePasses: true,
      localizationAgreement: 1,
      audit: "confirmed",
    },
    audit: { claims: [{ text: "c", evidence: "e", verdict: "confirmed" }], behaviourChanges: [] },
    signals: [
      {
        id: "code-silenced",
        name: "no code silenced",
        measured: true,
        tripped,
        value: tripped ? "1 line no longer run" : "none",
        evidence: tripped ? "`a.py::f` line 3" : "every line still runs",
      },
    ],
    timings: {},
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
  });
const META = {
  reproduction: { failedRuns: 3, totalRuns: 3 },
  maxSteps: 1,
  experiments: 1,
  durationMs: 1,
  suiteAfter: { passed: 3, failed: 0 },
  fixedAt: { file: "a.py", line: 2, function: "f" },
};

describe("the flags benchmark's reading of a report", () => {
  it("reads every confidence row of a real report, and a tripped signal as ⚠️", () => {
    const clear = reportFlags(renderReport(result(false), META));
    expect(clear.map((f) => f.name)).toEqual([
      "failure reproduced",
      "debugging concluded",
      "whole suite passes",
      "localization agrees",
      "audit",
      "no code silenced",
    ]);
    expect(clear.every((f) => f.icon === "✅")).toBe(true);
    const warned = reportFlags(renderReport(result(true), META));
    expect(warned.find((f) => f.name === "no code silenced")).toMatchObject({
      icon: "⚠️",
      value: "1 line no longer run",
    });
  });

  it("counts wrong patches warned and correct ones clear", () => {
    const clear = reportFlags(renderReport(result(false), META));
    const warned = reportFlags(renderReport(result(true), META));
    const p = flagPrecision([
      { id: "a", group: "v1", correct: true, flags: clear },
      { id: "b", group: "v1", correct: true, flags: warned },
      { id: "c", group: "v1", correct: false, flags: warned },
      { id: "d", group: "v1", correct: false, flags: clear },
    ]);
    expect(p).toEqual({
      wrong: 2,
      wrongWarned: 1,
      correct: 2,
      correctClear: 1,
      correctAllOk: 1,
      perFlag: { "no code silenced": { wrong: 1, correct: 1 } },
    });
  });
});
