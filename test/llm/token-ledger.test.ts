import { describe, expect, it } from "vitest";
import { BudgetExceeded } from "../../src/llm/errors.js";
import { allowance } from "../../src/llm/token-ledger.js";

describe("allowance (a job's effective token budget)", () => {
  it("is what is left of the job's budget without a daily count", () => {
    expect(allowance({ spent: 300, budget: 1000 })).toEqual({
      left: 700,
      scope: "job",
      spent: 300,
      budget: 1000,
    });
  });

  it("is the least of the job's budget left and the repository's day left", () => {
    expect(allowance({ spent: 0, budget: 1000 }, { spent: 9_800, limit: 10_000 })).toMatchObject({
      left: 200,
      scope: "daily",
    });
    expect(allowance({ spent: 900, budget: 1000 }, { spent: 0, limit: 10_000 })).toMatchObject({
      left: 100,
      scope: "job",
    });
    expect(allowance({ spent: 0, budget: 1000 }, { spent: 10_500, limit: 10_000 })).toMatchObject({
      left: -500,
      scope: "daily",
    });
  });

  it("ignores the day with a limit of 0 (no limit), however much was spent", () => {
    expect(allowance({ spent: 0, budget: 1000 }, { spent: 5_000_000, limit: 0 })).toMatchObject({
      left: 1000,
      scope: "job",
    });
  });

  it("names the limit that ran out in the refusal", () => {
    expect(new BudgetExceeded(400, 400).message).toContain("HYPOFIX_LLM_TOKEN_BUDGET");
    expect(new BudgetExceeded(2_000_100, 2_000_000, "daily").message).toBe(
      "the repository's daily LLM token quota is used up: 2000100 of 2000000 tokens today (HYPOFIX_REPO_DAILY_TOKENS); the model was skipped",
    );
  });
});
