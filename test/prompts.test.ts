import { describe, expect, it } from "vitest";
import { fillPrompt } from "../src/llm/prompts.js";

describe("fillPrompt", () => {
  it("fills every placeholder, including repeated ones", () => {
    expect(fillPrompt("{{a}} and {{b}} and {{a}}", { a: "x", b: "y" })).toBe("x and y and x");
  });
  it("refuses a missing value", () => {
    expect(() => fillPrompt("{{a}} {{b}}", { a: "x" })).toThrow(/\{\{b\}\}/);
  });
  it("refuses a value with no placeholder", () => {
    expect(() => fillPrompt("{{a}}", { a: "x", c: "z" })).toThrow(/c/);
  });
  it("leaves a value's own braces alone", () => {
    expect(fillPrompt("code: {{code}}", { code: "d = {{1: 2}}" })).toBe("code: d = {{1: 2}}");
  });
});
