import { describe, expect, it } from "vitest";
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

describe("rewriteCandidate's scope: what the model was shown, and another file", () => {
  const model = [
    "class Version:",
    "    release: tuple",
    "",
    "    @property",
    "    def key(self):",
    "        # trailing zeros dropped",
    "        return self.release",
    "",
    "    def __eq__(self, other):",
    "        return self.release == other.release",
    "",
  ].join("\n");
  const fns: FunctionInfo[] = [
    { file: "v.py", qualname: "Version.key", startLine: 4, endLine: 7 },
    { file: "v.py", qualname: "Version.__eq__", startLine: 9, endLine: 10 },
  ];
  const eq = fns[1]!;

  it("re-indents a method answered at column 0 into its class", () => {
    const c = rewriteCandidate(
      eq,
      fns,
      model,
      "def __eq__(self, other):\n    return self.key == other.key",
      0,
    )!;
    expect(c.edits[0]!.after).toBe(model.replace("self.release == other.release", "self.key == other.key"));
  });

  it("leaves out a function the model was not shown, and never takes it for the target", () => {
    const both = "def __eq__(self, other):\n    return self.key == other.key\n\ndef key(self):\n    return 1";
    const c = rewriteCandidate(eq, fns, model, both, 0, { shown: [eq] })!;
    expect(c.edits[0]!.after).toContain("        return self.release\n");
    expect(c.edits[0]!.after).toContain("return self.key == other.key");
    // Shown, the same answer changes both.
    const all = rewriteCandidate(eq, fns, model, both, 0, { shown: fns })!;
    expect(all.edits[0]!.after).toContain("        return 1\n");
    expect(all.edits[0]!.after).toContain("# trailing zeros dropped");
    // A lone answer for an unshown function is no candidate (it is not the target renamed).
    expect(rewriteCandidate(eq, fns, model, "def key(self):\n    return 1", 0, { shown: [eq] })).toBe(
      undefined,
    );
  });

  it("changes a shown function of another file, one edit per file", () => {
    const other = "def plan(until):\n    return until\n";
    const plan: FunctionInfo = { file: "r.py", qualname: "plan", startLine: 1, endLine: 2 };
    const answer = "def plan(until):\n    return until + 1";
    const scope = { shown: [eq, plan], sources: new Map([["r.py", other]]) };
    const c = rewriteCandidate(eq, [...fns, plan], model, answer, 0, scope)!;
    expect(c.edits).toEqual([
      { file: "r.py", before: other, after: other.replace("until\n", "until + 1\n") },
    ]);
    expect(c.at).toMatchObject({ file: "v.py", function: "Version.__eq__" });
    // Not shown, it is not changed.
    expect(rewriteCandidate(eq, [...fns, plan], model, answer, 0, { ...scope, shown: [eq] })).toBe(undefined);
  });
});
