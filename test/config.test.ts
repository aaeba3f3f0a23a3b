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
});
