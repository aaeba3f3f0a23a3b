import { describe, expect, it } from "vitest";
import { tupleItems } from "../../src/debug/offline/index.js";

describe("the offline engine's observed call", () => {
  it("splits a tuple's repr at its top-level commas only", () => {
    expect(tupleItems("(False, True, (50,))")).toEqual(["False", "True", "(50,)"]);
    expect(tupleItems(`('a, b', [1, (2, 3)], {'k': ")"})`)).toEqual(["'a, b'", "[1, (2, 3)]", `{'k': ")"}`]);
    expect(tupleItems("[The breakpoint line was not reached]")).toBeUndefined();
    expect(tupleItems("('unclosed, 1)")).toBeUndefined();
  });
});
