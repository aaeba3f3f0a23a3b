import { readFileSync } from "node:fs";
import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLlmEngine } from "../../src/debug/llm.js";
import { mockedModel, replayCompletions } from "../helpers/chat-completion.js";
import { markdownProblems } from "../helpers/markdown.js";
import { resultSchema } from "../../src/result.js";
import { example, fixLocally, fixture } from "./helpers.js";

const BASE = "http://llm.test:8000";

interface Recorded {
  responses: { choices: string[]; usage: [number, number] }[];
}

const replay = (responses: Recorded["responses"]) => replayCompletions(BASE, responses);

const model = () => mockedModel(BASE);

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe("runFix with the llm engine through the real openai client (nock-recorded responses)", () => {
  it("runs three steps (one rejected, DONE), validates ten candidates and reports it", async () => {
    const recorded = JSON.parse(readFileSync(fixture("fix-llm/recorded.json"), "utf8")) as Recorded;
    const sent = replay(recorded.responses);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 3, patches: 10 });
    const { result, report, patch } = await fixLocally(example("bank-account"), engine, {
      usage: () => chat.usage,
    }).outcome;

    expect(nock.isDone()).toBe(true);
    expect(resultSchema.parse(result)).toEqual(result);
    expect(result.engine).toBe("llm");
    expect(result.steps.map((s) => [s.conclusion, s.done])).toEqual([
      ["rejected", false],
      ["supported", false],
      ["supported", true],
    ]);
    // Observations are real runs, not the model's words.
    expect(result.steps.map((s) => s.observation)).toEqual(["0", "False", "[No exception triggered]"]);
    expect(sent[1]!.messages.at(-1)!.content).toContain("Observation: `0`");

    // Ten candidates asked for; duplicates and answers without a function dropped; each validated.
    expect(sent[6]!.n).toBe(10);
    const fixPrompt = sent[6]!.messages.at(-1)!.content;
    expect(fixPrompt).not.toContain("the overdraft is not counted");
    expect(fixPrompt).toContain("`can_withdraw` uses `<`");
    expect(result.patches).toHaveLength(4);
    const plausible = result.patches.filter((p) => p.plausible);
    expect(plausible).toHaveLength(2);
    expect(
      result.patches.find((p) =>
        p.brokenTests.includes("tests/test_bank.py::test_withdraw_more_than_balance_is_refused"),
      ),
    ).toBeDefined();
    expect(result.patches.find((p) => p.testsRun === 0)?.rejectedBecause).toMatch(
      /the suite does not run with the patch: .*SyntaxError/,
    );

    expect(result.status).toBe("fixed");
    // Of the two plausible rewrites, the one changing fewer tokens (it only adds a conjunct).
    expect(patch).toContain(
      "-        if not self.can_withdraw(amount):\n+        if not self.can_withdraw(amount) and amount != self.balance + self.overdraft:\n",
    );
    expect(result.confidence).toMatchObject({ done: true, reproduced: true, suitePasses: true });
    expect(result.usage).toEqual({ llmCalls: 7, promptTokens: 7194, completionTokens: 1450 });
    // The rejected hypothesis is folded into the list of what was ruled out; the decisive one is shown.
    expect(report).toContain("- step 1, rejected: ");
    expect(report).toContain("<b>Hypothesis 3 (supported, done):</b>");
    expect(report).toContain("3 other candidate patches, not proposed");
    expect(report).toContain("Engine `llm` (7 calls, 8644 tokens)");
    expect(markdownProblems(report)).toEqual([]);
  });

  it("/fix <text>: the maintainer's constraint reaches the model's first prompt and the report", async () => {
    const recorded = JSON.parse(readFileSync(fixture("fix-llm/recorded.json"), "utf8")) as Recorded;
    const sent = replay(recorded.responses);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 3, patches: 10 });
    const constraint = "keep can_withdraw's signature; @maria wants <b>no</b> new methods";
    const { result, report } = await fixLocally(example("bank-account"), engine, {
      usage: () => chat.usage,
      constraint,
    }).outcome;
    expect(sent[0]!.messages.at(-1)!.content).toContain(
      `The maintainer's constraint on the fix (follow it):\n${constraint}`,
    );
    expect(result.constraint).toEqual({ text: constraint, used: true });
    expect(report).toContain(
      "**Maintainer's constraint** (from `/fix`): keep can_withdraw's signature; @\u200bmaria",
    );
    expect(report).toContain("The llm engine was given it as a constraint on the fix.");
    expect(report).not.toContain("<b>no</b>");
    expect(markdownProblems(report)).toEqual([]);
  });

  it("asks once to repair a malformed step, then records it as undecided", async () => {
    const garbage = "I think the bug is in withdraw. Let me look at it.";
    const sent = replay([
      { choices: [garbage], usage: [800, 12] },
      {
        choices: [
          "Hypothesis: h\nPrediction: p\nExperiment: `b bank.py:22 ;; c ;; p amount` and `b bank.py:21 ;; c ;; p x`",
        ],
        usage: [830, 30],
      },
      { choices: ["no function here"], usage: [900, 5] },
    ]);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 1, patches: 2, ldbIterations: 0 });
    const { result, report } = await fixLocally(example("bank-account"), engine, { usage: () => chat.usage })
      .outcome;
    expect(nock.isDone()).toBe(true);
    expect(sent[1]!.messages.at(-1)!.content).toContain('the step has no "Prediction:" section');
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({ conclusion: "undecided", experiment: "" });
    expect(result.steps[0]!.observation).toMatch(/^\[not run: .*2 experiments/);
    expect(result.status).toBe("no-fix");
    expect(result.patches).toEqual([]);
    expect(report).toContain("- step 1, undecided: ");
    expect(markdownProblems(report)).toEqual([]);
  });
  it("falls back to LDB: traces the regenerated function each iteration and feeds its block verdicts back", async () => {
    const recorded = JSON.parse(readFileSync(fixture("fix-llm/recorded.json"), "utf8")) as Recorded;
    const fixed = recorded.responses[6]!.choices[0]!;
    const noCheck = recorded.responses[6]!.choices[4]!;
    const sent = replay([
      recorded.responses[0]!,
      {
        choices: ["Conclusion: The hypothesis is rejected: the overdraft is 0 as created."],
        usage: [880, 20],
      },
      { choices: [noCheck, "no function"], usage: [1000, 300] },
      {
        choices: [
          `Block 1: Verdict: correct. amount is positive.\nBlock 2: Verdict: wrong. 50 of 50 available is refused.\n${noCheck}`,
        ],
        usage: [1500, 200],
      },
      {
        choices: [
          `Block 1: Verdict: correct. amount is positive.\nBlock 2: Verdict: wrong. the balance check is gone.\n${fixed}`,
        ],
        usage: [1500, 200],
      },
    ]);
    const chat = model();
    // No round with the broken tests' failures here: LDB alone is under test.
    const engine = createLlmEngine(chat, { maxSteps: 1, patches: 2, ldbIterations: 3, brokeRetries: 0 });
    const { result, report } = await fixLocally(example("bank-account"), engine, { usage: () => chat.usage })
      .outcome;
    expect(nock.isDone()).toBe(true);
    const first = sent[3]!.messages.at(-1)!.content;
    // The real block trace of the failing test through the original function, with the values it saw.
    expect(first).toContain("[Block 2] line 27");
    expect(first).toContain("amount = 50");
    expect(first).toContain("The test ended with: InsufficientFunds");
    const second = sent[4]!.messages.at(-1)!.content;
    // The second iteration traces the function the first regenerated (it passes the failing test)...
    expect(second).toContain("The test ended with: [No exception triggered]");
    expect(second).not.toContain("if not self.can_withdraw(amount)");
    // ...and sees its own verdicts and why that version was refused.
    expect(second).toContain("Block 2: Verdict: wrong. 50 of 50 available is refused.");
    expect(second).toContain("breaks 1 test(s) that passed before");
    const ldbSteps = result.steps.filter((s) => s.experiment === "trace bank.py:Account.withdraw");
    expect(ldbSteps.map((s) => s.conclusion)).toEqual(["rejected", "supported"]);
    expect(ldbSteps[0]!.hypothesis).toContain("block 2 wrong (50 of 50 available is refused.)");
    expect(result.confidence.done).toBe(false);
    expect(result.status).toBe("fixed");
    expect(result.patches.filter((p) => p.plausible)).toHaveLength(1);
    expect(markdownProblems(report)).toEqual([]);
  });
  it("ends with status error and says why when the model endpoint fails", async () => {
    nock(BASE)
      .post("/v1/chat/completions")
      .reply(503, { error: { message: "overloaded", type: "server_error" } });
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 3, patches: 10 });
    const { result, report } = await fixLocally(example("bank-account"), engine, { usage: () => chat.usage })
      .outcome;
    expect(result.status).toBe("error");
    expect(result.reason).toMatch(/^the llm engine failed: LLM endpoint .*503/);
    expect(result.patches).toEqual([]);
    expect(report).toContain("Hypofix could not finish");
  });
});
