import { describe, expect, it } from "vitest";
import { moduleContext } from "../../src/debug/module-context.js";
import { codeKey, reapplyRewrite } from "../../src/debug/reapply.js";
import { rewriteCandidate, splitFunctions } from "../../src/debug/rewrite.js";
import type { FunctionInfo } from "../../src/lang/types.js";

const lines = (text: string) => text.split("\n");

describe("reapplyRewrite: the model's change applied to the original lines", () => {
  it("keeps comments, the docstring and a trailing comment the rewrite dropped; changes only the changed line", () => {
    const original = lines(
      [
        "def clamp(x, lo, hi):",
        '    """Clamp x into [lo, hi].',
        "",
        "    Both bounds are inclusive.",
        '    """',
        "    # FIXME: lo is exclusive",
        "    if x < lo:  # below",
        "        return lo",
        "    if x >= hi:",
        "        return hi",
        "    return x",
      ].join("\n"),
    );
    const model = lines(
      "def clamp(x, lo, hi):\n    if x<lo:\n        return lo\n    if x > hi:\n        return hi\n    return x",
    );
    expect(reapplyRewrite(original, model)).toEqual(original.map((l) => l.replace("x >= hi", "x > hi")));
  });

  it("inserts an added statement after the comment that precedes its place, at the original's indentation", () => {
    const original = lines(
      "def f(xs):\n  # the total\n  total = 0\n  for x in xs:\n    total += x\n  return total",
    );
    const model = lines(
      "def f(xs):\n    total = 0\n    for x in xs:\n        if x is None:\n            continue\n        total += x\n    return total",
    );
    expect(reapplyRewrite(original, model)).toEqual(
      lines(
        "def f(xs):\n  # the total\n  total = 0\n  for x in xs:\n    if x is None:\n      continue\n    total += x\n  return total",
      ),
    );
  });

  it("deletes a removed code line and replaces a changed block in place", () => {
    const original = lines("def g(a):\n    a = a + 1\n    print(a)  # debug\n    return a * 2");
    const model = lines("def g(a):\n    a = a + 1\n    return a * 3");
    expect(reapplyRewrite(original, model)).toEqual(lines("def g(a):\n    a = a + 1\n    return a * 3"));
  });

  it("compares code without comments and spacing, but keeps words apart", () => {
    expect(codeKey("x = a  -  1  # note")).toBe(codeKey("x=a-1"));
    expect(codeKey("s = '#not a comment'")).toBe("s='#not a comment'");
    expect(codeKey("return x")).not.toBe(codeKey("returnx"));
  });
});

describe("rewriteCandidate: functions of an answer matched by name", () => {
  const source = [
    "import re",
    "",
    "def first(s):",
    "    # keep",
    "    return s[1]",
    "",
    "",
    "@cache",
    "def last(s):",
    "    return s[-2]",
    "",
  ].join("\n");
  const functions: FunctionInfo[] = [
    { file: "m.py", qualname: "first", startLine: 3, endLine: 5 },
    { file: "m.py", qualname: "last", startLine: 8, endLine: 10 },
  ];

  it("changes two functions when the answer holds both (decorators left as they are)", () => {
    const block = "def first(s):\n    return s[0]\n\n@cache\ndef last(s):\n    return s[-1]";
    expect(splitFunctions(block).map((f) => f.name)).toEqual(["first", "last"]);
    const c = rewriteCandidate(functions[0]!, functions, source, block, 0)!;
    expect(c.edits[0]!.after).toBe(source.replace("s[1]", "s[0]").replace("s[-2]", "s[-1]"));
    expect(c).toMatchObject({ fromStep: 0, at: { file: "m.py", line: 3, function: "first" } });
  });

  it("takes one function of another name as the target, and gives nothing for an unchanged answer", () => {
    const c = rewriteCandidate(functions[0]!, functions, source, "def head(s):\n    return s[0]", -1)!;
    // Each changed line takes its place: the comment between them stays where it was.
    expect(c.edits[0]!.after).toBe(source.replace("def first", "def head").replace("s[1]", "s[0]"));
    expect(c.fromStep).toBeUndefined();
    expect(rewriteCandidate(functions[0]!, functions, source, "def first(s):\n    return s[1]", -1)).toBe(
      undefined,
    );
  });
});

describe("moduleContext", () => {
  it("lists imports, module-level names and signatures, and says when there is nothing", () => {
    const source =
      'from os import (\n    path,\n    sep,\n)\nimport re\nWORD = re.compile(r"\\w+")\nclass A:\n    def m(self, x,\n          y):\n        return x\n';
    const fns: FunctionInfo[] = [{ file: "a.py", qualname: "A.m", startLine: 8, endLine: 10 }];
    expect(moduleContext(source, "a.py", fns).split("\n")).toEqual([
      "from os import ( path, sep, )",
      "import re",
      'WORD = re.compile(r"\\w+")',
      "class A:",
      "A.m: def m(self, x, y):",
    ]);
    expect(moduleContext("", "a.py", [])).toBe("(nothing at module level)");
  });
});
