import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { UserError } from "../src/errors.js";

describe("loadConfig", () => {
  it("applies defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config.env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(config.sandbox.image).toBe("hypofix/sandbox-python:2");
    expect(config.sandbox.limits.outputBytes).toBe(1024 * 1024);
  });

  it("names the variable that is wrong", () => {
    let caught: unknown;
    try {
      loadConfig({ HYPOFIX_SANDBOX_MEMORY_MB: "lots" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).message).toContain("HYPOFIX_SANDBOX_MEMORY_MB");
  });

  it("rejects a malformed Redis URL", () => {
    expect(() => loadConfig({ REDIS_URL: "not a url" })).toThrow(/REDIS_URL/);
  });

  it("reads the daily token quota per repository: 2,000,000 by default, 0 for no limit", () => {
    expect(loadConfig({}).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(2_000_000);
    expect(loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: "0" }).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(0);
    expect(loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: "500000" }).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(500_000);
  });

  it.each(["2M", "-1", "1.5"])("refuses %j as the daily token quota, naming the variable", (value) => {
    let caught: unknown;
    try {
      loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).message).toMatch(
      /^invalid environment variable HYPOFIX_REPO_DAILY_TOKENS: /,
    );
  });
});
