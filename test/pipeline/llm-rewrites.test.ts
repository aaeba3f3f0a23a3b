import { readFileSync } from "node:fs";
import { applyPatch } from "diff";
import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLlmEngine } from "../../src/debug/llm.js";
import type { Localizer } from "../../src/pipeline/localize.js";
import { mockedModel, replayCompletions } from "../helpers/chat-completion.js";
import { example, fixLocally, fixture } from "./helpers.js";

const BASE = "http://llm.test:8000";
const replay = (responses: { choices: string[]; usage: [number, number] }[]) =>
  replayCompletions(BASE, responses);

const model = () => mockedModel(BASE);

const fence = (code: string) => "```python\n" + code + "\n```";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe("the llm engine's rewrites through runFix (real pytest, model mocked at HTTP)", () => {
  it("re-applies a rewrite without comments or docstring to the original: the patch changes only the fixed line", async () => {
    const rewrite = fence(
      [
        "def restock_needed(levels, minimum=LOW_STOCK):",
        "    needed = []",
        "    for name in sorted(levels):",
        "        level = levels[name]",
        "        if level is None:",
        "            continue",
        "        if level <= minimum:",
        "            needed.append(name)",
        "    return needed",
      ].join("\n"),
    );
    const sent = replay([
      {
        choices: [
          'Hypothesis: `level < minimum` on line 21 leaves out an item exactly at the minimum.\nPrediction: with `<=` the test passes.\nExperiment: `REPLACE(inventory.py:21, "<", "<=") AND RUN`',
        ],
        usage: [900, 60],
      },
      { choices: ["Conclusion: supported, the test passes with `<=`. <DEBUGGING DONE>"], usage: [1000, 20] },
      { choices: [rewrite], usage: [1200, 120] },
    ]);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 2, patches: 1 });
    const { result, patch } = await fixLocally(fixture("fix-llm-comments"), engine, {
      usage: () => chat.usage,
    }).outcome;
    expect(nock.isDone()).toBe(true);
    expect(result.status).toBe("fixed");
    const changed = patch.split("\n").filter((l) => /^[-+](?![-+])/.test(l));
    expect(changed).toEqual(["-        if level < minimum:", "+        if level <= minimum:"]);
    // Comments, the docstring and the blank line the rewrite left out are all still there.
    const original = readFileSync(fixture("fix-llm-comments/inventory.py"), "utf8");
    const patched = applyPatch(original, patch);
    expect(patched).toBe(original.replace("if level < minimum:", "if level <= minimum:"));

    // The fix prompt shows the module: its imports, names and the other functions' signatures.
    const fixPrompt = sent[2]!.messages.at(-1)!.content;
    expect(fixPrompt).toContain("import math");
    expect(fixPrompt).toContain("LOW_STOCK = 3");
    expect(fixPrompt).toContain("def percent_full(level, capacity): ...");
    expect(fixPrompt).toContain("do not import them again");
  });

  const bank = readFileSync(example("bank-account/bank.py"), "utf8");
  const step = {
    choices: [
      "Hypothesis: `can_withdraw` refuses an amount equal to what is available.\nPrediction: the test passes when `withdraw` checks the amount itself.\nExperiment: `b bank.py:22 ;; c ;; p amount < available`",
    ],
    usage: [900, 60] as [number, number],
  };
  const done = {
    choices: ["Conclusion: supported. <DEBUGGING DONE>"],
    usage: [1000, 20] as [number, number],
  };
  const noCheck = fence(
    'def withdraw(self, amount):\n    if amount <= 0:\n        raise ValueError("withdrawal must be positive")\n    self.balance -= amount\n    return self.balance',
  );
  const fixed = fence(
    'def withdraw(self, amount):\n    if amount <= 0:\n        raise ValueError("withdrawal must be positive")\n    if amount > self.balance + self.overdraft:\n        raise InsufficientFunds(f"{self.owner} cannot withdraw {amount}")\n    self.balance -= amount\n    return self.balance',
  );

  it("sends a rewrite that broke other tests back with their failures, and validates the answer", async () => {
    expect(bank).toContain("if not self.can_withdraw(amount):");
    const sent = replay([
      step,
      done,
      { choices: [noCheck, "no function here"], usage: [1200, 200] },
      { choices: [fixed], usage: [1500, 120] },
    ]);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 1, patches: 2, ldbIterations: 0 });
    const { result, patch } = await fixLocally(example("bank-account"), engine, { usage: () => chat.usage })
      .outcome;
    expect(nock.isDone()).toBe(true);
    const retry = sent[3]!.messages;
    // The conversation goes on: the rewrite that broke tests, then how they failed.
    expect(retry.at(-2)).toEqual({ role: "assistant", content: noCheck });
    expect(retry.at(-1)!.content).toContain(
      "tests/test_bank.py::test_withdraw_more_than_balance_is_refused:",
    );
    expect(retry.at(-1)!.content).toContain("DID NOT RAISE");
    expect(result.patches.map((p) => p.plausible).sort()).toEqual([false, true]);
    expect(result.status).toBe("fixed");
    expect(patch).toContain(
      "-        if not self.can_withdraw(amount):\n+        if amount > self.balance + self.overdraft:\n",
    );
  });

  it("sends a rewrite that left failing tests failing back with them and the next suspect's body, keeping its repair", async () => {
    const sent = replay([
      {
        choices: [
          'Hypothesis: `days_until` stops before `last`.\nPrediction: with `<=` the last day is there.\nExperiment: `REPLACE(src/days/steps.py:5, "<", "<=") AND RUN`',
        ],
        usage: [900, 60],
      },
      { choices: ["Conclusion: supported. <DEBUGGING DONE>"], usage: [1000, 20] },
      {
        choices: [
          fence(
            "def days_until(start, last):\n    days = []\n    day = start\n    while day <= last:\n        days.append(day)\n        day += 1\n    return days",
          ),
        ],
        usage: [1200, 120],
      },
      {
        choices: [
          fence(
            "def working_days(start, last, off=()):\n    return [d for d in days_until(start, last) if d not in off]",
          ),
        ],
        usage: [1500, 120],
      },
    ]);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 1, patches: 1, ldbIterations: 0 });
    const { result, patch } = await fixLocally(fixture("fix-llm-two-faults"), engine).outcome;
    expect(nock.isDone()).toBe(true);
    const round = sent[3]!.messages.at(-1)!.content;
    expect(round).toContain("these failing tests still fail with it:");
    expect(round).toContain("tests/test_plan.py::test_working_days_include_the_last_day:");
    expect(round).toContain("`working_days` in `src/days/plan.py`:");
    expect(round).toContain("return [d for d in days_until(start, last - 1) if d not in off]");
    // The fix prompt showed the module as the tests import it.
    expect(sent[0]!.messages.at(-1)!.content).toContain("Tests refer to its module as `from days.");
    expect(result.status).toBe("fixed");
    expect(patch).toContain("+    while day <= last:");
    expect(patch).toContain("+    return [d for d in days_until(start, last) if d not in off]");
    // The comment of the function the model rewrote without it is kept.
    expect(patch).not.toContain("-    # `last` is inclusive");
  });

  it("proposes the smaller of two plausible rewrites, whichever came first", async () => {
    const larger = fence(
      'def withdraw(self, amount):\n    if amount <= 0:\n        raise ValueError("withdrawal must be positive")\n    available = self.balance + self.overdraft\n    if amount > available:\n        raise InsufficientFunds(f"{self.owner} cannot withdraw {amount}")\n    self.balance -= amount\n    return self.balance',
    );
    for (const choices of [
      [larger, fixed],
      [fixed, larger],
    ]) {
      replay([step, done, { choices, usage: [1200, 200] }]);
      const chat = model();
      const engine = createLlmEngine(chat, { maxSteps: 1, patches: 2, ldbIterations: 0 });
      const { result, patch } = await fixLocally(example("bank-account"), engine).outcome;
      expect(result.patches.filter((p) => p.plausible)).toHaveLength(2);
      expect(patch).toContain("+        if amount > self.balance + self.overdraft:\n");
      expect(patch).not.toContain("available = self.balance + self.overdraft");
    }
  });

  it("ends no-fix when the second round brings back the same broken rewrite", async () => {
    replay([
      step,
      done,
      { choices: [noCheck], usage: [1200, 200] },
      { choices: [noCheck], usage: [1500, 120] },
    ]);
    const chat = model();
    const engine = createLlmEngine(chat, { maxSteps: 1, patches: 1, ldbIterations: 0 });
    const { result } = await fixLocally(example("bank-account"), engine, { usage: () => chat.usage }).outcome;
    expect(nock.isDone()).toBe(true);
    // The same diff is not validated twice.
    expect(result.patches).toHaveLength(1);
    expect(result.patches[0]!.brokenTests).toEqual([
      "tests/test_bank.py::test_withdraw_more_than_balance_is_refused",
    ]);
    expect(result.status).toBe("no-fix");
  });

  /** A step that stays malformed after its repair request, then no function: the run only shows its prompts. */
  const unparsable = [
    { choices: ["not a step"], usage: [900, 5] as [number, number] },
    { choices: ["still not"], usage: [900, 5] as [number, number] },
    { choices: ["no function"], usage: [900, 5] as [number, number] },
  ];

  /** A localizer that ranks the named function first, as AutoFL's answer would. */
  const ranking =
    (fn: string): Localizer =>
    async () => ({
      entries: [{ rank: 1, file: "bank.py", function: fn, score: 1, reason: "the model named it" }],
      agreement: 1,
      runs: 1,
    });

  it.each([
    ["Account.can_withdraw", "bank.py:20, Account.can_withdraw"],
    ["Account.deposit", "bank.py:14, Account.deposit"],
  ])("debugs the localizer's first function (%s) when one ran", async (fn, location) => {
    const sent = replay(unparsable);
    const engine = createLlmEngine(model(), { maxSteps: 1, patches: 1, ldbIterations: 0, brokeRetries: 0 });
    await fixLocally(example("bank-account"), engine, { localizer: ranking(fn) }).outcome;
    expect(sent[0]!.messages.at(-1)!.content).toContain(`most likely faulty (${location})`);
  });

  it("debugs SBFL's first function when no localizer ran", async () => {
    const sent = replay(unparsable);
    const engine = createLlmEngine(model(), { maxSteps: 1, patches: 1, ldbIterations: 0, brokeRetries: 0 });
    const { result } = await fixLocally(example("bank-account"), engine).outcome;
    const top = result.localization[0]!;
    expect(sent[0]!.messages.at(-1)!.content).toContain(`, ${top.function})`);
    expect(top.function).not.toBe("Account.deposit");
  });
});
