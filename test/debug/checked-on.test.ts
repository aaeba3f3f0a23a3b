import { describe, expect, it } from "vitest";
import { checkedOn } from "../../src/debug/checked-on.js";
import type { Validation } from "../../src/debug/types.js";

const validation = (scoped: boolean): Validation => ({
  plausible: true,
  testsRun: 4,
  testsFailed: 0,
  brokenTests: [],
  stillFailing: [],
  diff: "",
  ...(scoped ? { scoped } : {}),
});

describe("what a step's note says a validation ran", () => {
  it("says the whole suite only when the whole suite ran", () => {
    expect(checkedOn(validation(false))).toBe("the whole suite (4 tests)");
    expect(checkedOn(validation(true))).toBe("the 4 tests that reach the change");
  });
});
