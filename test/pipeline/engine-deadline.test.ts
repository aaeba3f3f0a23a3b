import { describe, expect, it } from "vitest";
import type { DebugEngine } from "../../src/debug/types.js";
import { example, fixLocally } from "./helpers.js";

/**
 * The engine's wall clock ends early enough for what follows it before the job's deadline (the
 * chosen patch's coverage run, its validation in a fresh sandbox): real pytest in the local
 * sandbox, an engine that only reads its budget.
 */
describe("the engine's wall clock and the job's deadline", () => {
  const budgetSeen = async (deadlineInMs: number | undefined) => {
    let remaining = -1;
    const engine: DebugEngine = {
      name: "offline",
      async run(_bug, _runtime, budget) {
        remaining = budget.remainingMs();
        return { steps: [], candidates: [], done: false, stop: "exhausted" };
      },
    };
    const { outcome } = fixLocally(example("bank-account"), engine, {
      wallClockMs: 600_000,
      ...(deadlineInMs !== undefined ? { deadline: Date.now() + deadlineInMs } : {}),
    });
    await outcome;
    return remaining;
  };

  it("keeps the whole wall clock when the deadline is far", async () => {
    expect(await budgetSeen(undefined)).toBeGreaterThan(590_000);
    expect(await budgetSeen(3_600_000)).toBeGreaterThan(590_000);
  }, 120_000);

  it("stops before the deadline by the coverage run and a suite run or two", async () => {
    const remaining = await budgetSeen(120_000);
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(120_000 - 10_000);
  }, 120_000);
});
