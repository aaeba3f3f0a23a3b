import { describe, expect, it } from "vitest";
import { Budget } from "../../src/debug/budget.js";
import { forbiddenPath } from "../../src/debug/guards.js";

describe("forbiddenPath", () => {
  const rules = { sourcePaths: [], ignorePaths: ["vendor"] };

  it("allows repository source files", () => {
    expect(forbiddenPath("bank.py", rules)).toBeUndefined();
    expect(forbiddenPath("src/pkg/mod.py", rules)).toBeUndefined();
  });

  it("never allows tests, CI configuration, ignored paths or paths outside the repository", () => {
    expect(forbiddenPath("tests/test_bank.py", rules)).toMatch(/test file/);
    expect(forbiddenPath("pkg/conftest.py", rules)).toMatch(/test file/);
    expect(forbiddenPath(".github/workflows/ci.yml", rules)).toMatch(/CI configuration/);
    expect(forbiddenPath("vendor/lib.py", rules)).toMatch(/ignored/);
    expect(forbiddenPath("../outside.py", rules)).toMatch(/outside the repository/);
    expect(forbiddenPath("/etc/passwd", rules)).toMatch(/outside the repository/);
  });

  it("keeps patches inside the configured source paths", () => {
    const only = { sourcePaths: ["src/"], ignorePaths: [] };
    expect(forbiddenPath("src/a.py", only)).toBeUndefined();
    expect(forbiddenPath("srcx/a.py", only)).toMatch(/outside the configured source paths \(src\/\)/);
  });
});

describe("Budget", () => {
  it("stops at the experiment, token and wall-clock limits and says which", () => {
    let now = 0;
    const budget = new Budget({ maxExperiments: 2, maxTokens: 100, wallClockMs: 1000 }, () => now);
    expect(budget.exhausted()).toBeUndefined();
    budget.spendExperiment();
    budget.spendExperiment();
    expect(budget.exhausted()).toBe("experiment budget of 2 used up");
    const tokens = new Budget({ maxExperiments: 9, maxTokens: 100, wallClockMs: 1000 }, () => now);
    tokens.spendTokens(150);
    expect(tokens.exhausted()).toBe("LLM token budget of 100 used up");
    const clock = new Budget({ maxExperiments: 9, maxTokens: 100, wallClockMs: 1000 }, () => now);
    now = 1500;
    expect(clock.exhausted()).toBe("wall-clock budget of 1 s used up");
    expect(clock.remainingMs()).toBe(0);
  });
});
