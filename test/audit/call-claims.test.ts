import { describe, expect, it } from "vitest";
import { callChange, callChangeSentence } from "../../src/audit/claims.js";
import { statedClaims } from "../../src/audit/stated-claims.js";
import { changedTargets } from "../../src/audit/test-calls.js";
import type { FunctionInfo } from "../../src/lang/types.js";

const fn = (qualname: string, startLine: number, endLine: number): FunctionInfo => ({
  file: "m.py",
  qualname,
  startLine,
  endLine,
});

describe("a stated call change", () => {
  it("reads back as the claim it states, a method's object included, as one sentence of an explanation", () => {
    const change = {
      qualname: "Account.can_withdraw",
      args: "Account(balance=50, overdraft=0, owner='ada'), 50",
      before: "False",
      after: "True",
    };
    const sentence = callChangeSentence(change, "tests/test_bank.py::test_withdraw[50]");
    expect(sentence).toBeDefined();
    expect(callChange(sentence!)).toEqual(change);
    expect(statedClaims(`Allows the entire balance.\n\n${sentence}`)).toEqual([
      "Allows the entire balance.",
      sentence,
    ]);
  });

  it("is not stated when a value would not read back (a backtick or a line break in it)", () => {
    const change = { qualname: "f", args: "'a`b'", before: "1", after: "2" };
    expect(callChangeSentence(change, "t.py::test")).toBeUndefined();
    expect(callChangeSentence({ ...change, args: "1", after: "2\n3" }, "t.py::test")).toBeUndefined();
  });
});

describe("the functions a patch changes", () => {
  const functions = [fn("C", 1, 8), fn("C.a", 2, 4), fn("C.b", 6, 8), fn("top", 10, 11)];
  const before = [
    "class C:",
    "    def a(self):",
    "        x = 1",
    "        return x",
    "",
    "    def b(self):",
    "        y = 2",
    "        return y",
    "",
    "def top():",
    "    return 0",
    "",
  ].join("\n");

  it("are the innermost around each changed span: the method, not its class; two hunks, two functions", () => {
    const after = before.replace("x = 1", "x = 2").replace("return 0", "return 1");
    expect(changedTargets([{ file: "m.py", before, after }], functions)).toEqual([
      { file: "m.py", qualname: "C.a" },
      { file: "m.py", qualname: "top" },
    ]);
  });

  it("include the function a line is inserted into, and none for a change outside every function", () => {
    const inserted = before.replace("        y = 2\n", "        y = 2\n        y += 1\n");
    expect(changedTargets([{ file: "m.py", before, after: inserted }], functions)).toEqual([
      { file: "m.py", qualname: "C.b" },
    ]);
    expect(changedTargets([{ file: "m.py", before, after: `${before}X = 1\n` }], functions)).toEqual([]);
  });
});
