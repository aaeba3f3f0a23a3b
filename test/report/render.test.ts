import { describe, expect, it } from "vitest";
import { markdownProblems } from "../helpers/markdown.js";
import { renderReport, type ReportMeta } from "../../src/report/render.js";
import { resultSchema, type Result } from "../../src/result.js";

const DIFF = [
  "--- a/bank.py",
  "+++ b/bank.py",
  "@@ -20,3 +20,3 @@",
  "     def can_withdraw(self, amount):",
  "         available = self.balance + self.overdraft",
  "-        return amount < available",
  "+        return amount <= available",
  "",
].join("\n");

function fixedResult(): Result {
  return resultSchema.parse({
    status: "fixed",
    reason: "a patch passes the failing test and keeps the whole suite green",
    failingTests: ["tests/test_bank.py::test_withdraw_entire_balance"],
    localization: [
      { rank: 1, file: "bank.py", function: "Account.can_withdraw", line: 22, score: 0.71, reason: "Ochiai" },
    ],
    steps: [
      {
        hypothesis:
          "The fault is at `bank.py:22` in `Account.can_withdraw`: `return amount < available`. SBFL ranks it #1.",
        prediction: "The failing test reaches line 22.",
        experiment: "b bank.py:22 ;; c ;; p amount < available",
        observation: "False",
        conclusion: "supported",
        done: false,
      },
      {
        hypothesis: "The arithmetic at line 21 uses the wrong operator: `+` should be `-`.",
        prediction: "With the edit the test passes.",
        experiment: 'REPLACE(bank.py:21, "balance + self", "balance - self") AND RUN',
        observation: "InsufficientFunds: ada cannot withdraw 50",
        conclusion: "rejected",
        done: false,
      },
      {
        hypothesis:
          'The comparison at line 22 should test "at most": `amount < available` should be `amount <= available`.',
        prediction: "With the edit the test passes.",
        experiment: 'REPLACE(bank.py:22, "amount < available", "amount <= available") AND RUN',
        observation: "[No exception triggered]",
        conclusion: "supported",
        done: true,
      },
    ],
    patches: [{ diff: DIFF, plausible: true, testsRun: 7, testsFailed: 0, fromStep: 2 }],
    confidence: {
      done: true,
      reproduced: true,
      suitePasses: true,
      localizationAgreement: 1,
      audit: "confirmed",
    },
    audit: {
      claims: [
        {
          text: "fixes test_withdraw_entire_balance",
          evidence: "fails before, passes after",
          verdict: "confirmed",
        },
      ],
      behaviourChanges: [
        { kind: "call", subject: "bank.Account.can_withdraw(50)", before: "False", after: "True" },
      ],
    },
    timings: { total: 41_000 },
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
  });
}

const META: ReportMeta = {
  reproduction: { failedRuns: 3, totalRuns: 3 },
  suiteBefore: { passed: 6, failed: 1 },
  suiteAfter: { passed: 7, failed: 0 },
  maxSteps: 3,
  experiments: 3,
  durationMs: 41_000,
  fixedAt: { file: "bank.py", line: 22, function: "Account.can_withdraw" },
  notes: [
    "line 22 runs during the failing test",
    "the failing test still fails the same way",
    "the whole suite passes",
  ],
};

describe("renderReport", () => {
  it("renders a fixed result as the PR body", () => {
    const md = renderReport(fixedResult(), META);
    expect(md).toMatchSnapshot();
    expect(markdownProblems(md)).toEqual([]);
  });

  it("puts the patch, the confidence flags with evidence and one folded block per hypothesis", () => {
    const md = renderReport(fixedResult(), META);
    expect(md.startsWith("### Fix `Account.can_withdraw` so `test_withdraw_entire_balance` passes\n")).toBe(
      true,
    );
    expect(md).toContain("```diff\n--- a/bank.py");
    expect(md).toContain("| ✅ failure reproduced | 3 of 3 reruns |");
    expect(md).toContain("| ✅ whole suite passes | 7 passed, 0 failed | was 6 passed, 1 failed |");
    expect(md.match(/<details><summary>🟢/g)).toHaveLength(2);
    // The rejected hypothesis is folded into the one list of what was ruled out.
    expect(md).toContain("<details><summary>🔴 1 other step: ruled out or uninformative</summary>");
    expect(md).toContain("<b>Hypothesis 3 (supported, done):</b>");
    expect(md).toMatch(/^\*\*Cause\*\* \(hypothesis 3\): The comparison at line 22 should test/m);
    expect(md).toContain("**Observation:** `False`");
    expect(md).toContain("#### Audit");
  });

  it("fences content that itself contains backtick runs with a longer fence", () => {
    const result = fixedResult();
    result.patches[0]!.diff = `${DIFF}+    doc = """\`\`\`\`python"""\n`;
    const md = renderReport(result, META);
    expect(md).toContain("`````diff\n");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("folds long observations instead of dumping them", () => {
    const result = fixedResult();
    result.steps[2]!.observation = Array.from({ length: 40 }, (_, i) => `line ${i} of a long traceback`).join(
      "\n",
    );
    const md = renderReport(result, META);
    expect(md).toContain("<details><summary>full observation (40 lines)</summary>");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("keeps HTML in hypotheses from opening tags", () => {
    const result = fixedResult();
    result.steps[0]!.hypothesis = "The value <details> is wrong `a < b` here.";
    const md = renderReport(result, META);
    expect(md).toContain("<code>a &lt; b</code>");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("folds every rejected hypothesis and uninformative probe into one list", () => {
    const result = fixedResult();
    const rejected = result.steps[1]!;
    // A probe of another line than the decisive edit's: uninformative for the fix.
    const probe = {
      ...result.steps[0]!,
      role: "probe" as const,
      experiment: "b bank.py:21 ;; c ;; p available",
    };
    result.steps = [probe, ...Array.from({ length: 10 }, () => ({ ...rejected })), result.steps[2]!];
    result.patches[0]!.fromStep = 11;
    const md = renderReport(result, { ...META, notes: [] });
    expect(md.match(/<details><summary>🔴 <b>/g)).toBeNull();
    expect(md).toContain("<details><summary>🔴 11 other steps: ruled out or uninformative</summary>");
    expect(md).toContain("- step 1, observed: ");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("says what was learned when there is no fix, and proposes no patch", () => {
    const result = fixedResult();
    const noFix = resultSchema.parse({
      ...result,
      status: "no-fix",
      reason: "no hypothesis led to an edit that makes the failing test pass",
      steps: result.steps.slice(0, 2),
      patches: [
        {
          ...result.patches[0]!,
          plausible: false,
          testsFailed: 1,
          brokenTests: ["tests/test_bank.py::test_overdraft"],
          rejectedBecause: "breaks 1 test(s) that passed before",
        },
      ],
      confidence: { ...result.confidence, done: false, suitePasses: false, audit: "not-run" },
      audit: { claims: [], behaviourChanges: [], notes: ["no validated patch to audit"] },
    });
    const md = renderReport(noFix, { ...META, suiteAfter: undefined, fixedAt: undefined });
    expect(md).toMatchSnapshot();
    expect(md).toContain("No validated fix for `test_withdraw_entire_balance`");
    expect(md.indexOf("```diff")).toBeGreaterThan(md.indexOf("other candidate patch, not proposed"));
    expect(md).toContain("1 other candidate patch, not proposed");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("reports a flaky test as flaky, not fixed", () => {
    const flaky = resultSchema.parse({
      ...fixedResult(),
      status: "flaky",
      reason: "passed on some reruns",
      steps: [],
      patches: [],
      confidence: {
        done: false,
        reproduced: false,
        suitePasses: false,
        localizationAgreement: 0,
        audit: "not-run",
      },
      audit: { claims: [], behaviourChanges: [] },
    });
    const md = renderReport(flaky, { ...META, reproduction: { failedRuns: 1, totalRuns: 3 } });
    expect(md).toContain("is flaky: not fixed");
    expect(md).toContain("| ⚠️ failure reproduced | flaky: failed on 1 of 3 reruns |");
    // Nothing else was measured: neutral flags, no localization flag without a fix.
    expect(md).toContain("| ➖ debugging concluded | no steps ran |");
    expect(md).toContain("| ➖ whole suite passes | not run |");
    expect(md).not.toContain("localization agrees");
    expect(markdownProblems(md)).toEqual([]);
  });

  it("points the reproduce command at the decisive experiment, quoted for a shell", () => {
    const result = fixedResult();
    result.steps[2]!.experiment = "REPLACE(bank.py:22, 'a', 'b') AND RUN";
    const md = renderReport(result, META);
    expect(md).toContain(
      "locally: `hypofix observe . --test tests/test_bank.py::test_withdraw_entire_balance --experiment 'REPLACE(bank.py:22, '\\''a'\\'', '\\''b'\\'') AND RUN'`",
    );
  });
});
