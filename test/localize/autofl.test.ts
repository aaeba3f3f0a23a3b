import { describe, expect, it } from "vitest";
import type { CoverageReport, FunctionInfo, TestFailure } from "../../src/lang/types.js";
import { autofl, type AutoflInput } from "../../src/localize/autofl.js";
import { sbfl } from "../../src/localize/sbfl.js";
import { callTools, say, ScriptedModel, type ScriptedTurn } from "../doubles/scripted-model.js";

const files: Record<string, string> = {
  "calc/ops.py": `"""Arithmetic helpers."""


def add(a, b):
    """Return a + b."""
    return a + b


def mean(values):
    # average of a non-empty list
    total = 0
    for v in values:
        total = add(total, v)
    return total // len(values)


class Stats:
    def __init__(self, values):
        self.values = values

    def average(self):
        return mean(self.values)
`,
  "tests/test_ops.py": `from calc.ops import Stats, add


def test_add():
    assert add(1, 2) == 3


def test_average():
    s = Stats([1, 2])
    assert s.values == [1, 2]
    assert s.average() == 1.5
`,
};

const functions: FunctionInfo[] = [
  { file: "calc/ops.py", qualname: "add", startLine: 4, endLine: 6 },
  { file: "calc/ops.py", qualname: "mean", startLine: 9, endLine: 14 },
  { file: "calc/ops.py", qualname: "Stats.__init__", startLine: 18, endLine: 19 },
  { file: "calc/ops.py", qualname: "Stats.average", startLine: 21, endLine: 22 },
];
const FAILING = "tests/test_ops.py::test_average";
const coverage: CoverageReport = {
  perTest: {
    "tests/test_ops.py::test_add": { "calc/ops.py": [6] },
    [FAILING]: { "calc/ops.py": [6, 11, 12, 13, 14, 19, 22] },
  },
  outcomes: { "tests/test_ops.py::test_add": "passed", [FAILING]: "failed" },
  functions,
};
const failure: TestFailure = {
  type: "AssertionError",
  message: "assert 1 == 1.5",
  frames: [
    { file: "tests/test_ops.py", line: 11, function: "test_average", code: "assert s.average() == 1.5" },
  ],
  text: "",
};

function input(model: ScriptedModel, extra: Partial<AutoflInput> = {}): AutoflInput {
  return {
    model,
    failingTests: [FAILING],
    failures: new Map([[FAILING, failure]]),
    coverage,
    testFunctions: [
      { file: "tests/test_ops.py", qualname: "test_add", startLine: 4, endLine: 5 },
      { file: "tests/test_ops.py", qualname: "test_average", startLine: 8, endLine: 11 },
    ],
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    sbfl: sbfl({ coverage, failingTests: [FAILING] }),
    ...extra,
  };
}

const toolResults = (messages: { role: string; content: string | null }[]) =>
  messages.filter((m) => m.role === "tool").map((m) => m.content ?? "");

describe("autofl", () => {
  it("explores with the tools, ranks by 1/n over runs and appends covered unnamed functions", async () => {
    const model = new ScriptedModel([
      callTools({ name: "get_covered_classes", args: {} }),
      callTools({ name: "get_covered_functions", args: { name: "calc.ops.Stats" } }),
      callTools(
        { name: "get_code_snippet", args: { signature: "calc.ops.mean" } },
        { name: "get_comments", args: { signature: "mean" } },
      ),
      say("mean() uses integer division, so the average of [1, 2] is 1."),
      say("```\ncalc.ops.mean\ncalc.ops.Stats.average\n```"),
      // Run 2 recovers from every kind of bad call.
      callTools({ name: "get_code_snippet", args: { signature: 42 } }),
      callTools({ name: "get_source", args: {} }),
      callTools({ name: "get_code_snippet", args: { signature: "calc/missing.py::foo" } }),
      callTools({ name: "get_comments", args: "{not json" }),
      say("The division is wrong."),
      say("`mean`"),
    ]);
    const result = await autofl(input(model, { runs: 2 }));

    expect(result.entries.map((e) => [e.function, e.score, e.line])).toEqual([
      ["mean", 1.5, 11],
      ["Stats.average", 0.5, 22],
      ["Stats.__init__", 0, 19],
      ["add", 0, 6],
    ]);
    expect(result.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4]);
    expect(result.entries[0]?.reason).toBe("named in 2/2 AutoFL runs (score 1.50)");
    expect(result.entries[2]?.reason).toContain("executed by 1/1 failing tests");
    expect(result.agreement).toBe(1);
    expect(model.remaining).toBe(0);

    const [run1, run2] = result.runs;
    const prompt = run1?.messages[1]?.content ?? "";
    expect(prompt).toContain("The test `tests/test_ops.py::test_average` fails.");
    expect(prompt).toContain(
      "def test_average():\n    s = Stats([1, 2])\n    assert s.average() == 1.5  # error occurred here\n```",
    );
    expect(prompt).not.toContain("s.values == [1, 2]");
    expect(prompt).toContain("AssertionError: assert 1 == 1.5");
    expect(prompt).toContain("tests/test_ops.py:11 in test_average");
    expect(prompt).toContain("get_covered_classes");

    expect(toolResults(run1?.messages ?? [])).toEqual([
      '{"modules":["calc.ops"],"classes":["calc.ops.Stats"]}\nCall get_covered_functions with one of these names.\n(9 function calls left.)',
      '["calc.ops.Stats.__init__(self, values)","calc.ops.Stats.average(self)"]\n(8 function calls left.)',
      expect.stringMatching(/ {2}14 {5}return total \/\/ len\(values\)\n\(7 function calls left\.\)$/),
      "10: # average of a non-empty list\n(6 function calls left.)",
    ]);
    expect(run1?.explanation).toContain("integer division");
    expect(run1?.predicted).toEqual(["calc.ops.mean", "calc.ops.Stats.average"]);

    const errors = toolResults(run2?.messages ?? []);
    expect(errors[0]).toMatch(
      /^Error: bad arguments for get_code_snippet \(signature: .*\)\. Expected arguments like/,
    );
    expect(errors[1]).toBe(
      "Error: there is no function `get_source`. Available: get_covered_classes, get_covered_functions, get_code_snippet, get_comments, get_module_code.\n(8 function calls left.)",
    );
    expect(errors[2]).toContain("Error: no function `calc/missing.py::foo`");
    expect(errors[2]).toContain("calc.ops.mean");
    expect(errors[3]).toContain("are not valid JSON");
    expect(run2?.toolCalls.map((c) => c.ok)).toEqual([false, false, false, false]);

    // Stage 1 offers the tools; stage 2 offers none.
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual([
      "get_covered_classes",
      "get_covered_functions",
      "get_code_snippet",
      "get_comments",
      "get_module_code",
    ]);
    expect(model.requests[0]?.tools?.[2]?.parameters).toMatchObject({ required: ["signature"] });
    expect(model.requests[4]?.tools).toBeUndefined();
    expect(model.requests[4]?.messages.at(-1)?.content).toContain("one name per line");
  });

  it("stops at N calls, survives a garbage answer and a failing model", async () => {
    const model = new ScriptedModel([
      callTools(
        { name: "get_covered_classes", args: {} },
        { name: "get_code_snippet", args: { signature: "add" } },
        { name: "get_code_snippet", args: { signature: "mean" } },
      ),
      say("I think the problem is somewhere in the averaging logic of this code base."),
      say("The bug is in the division."),
      say("```\ncalc/ops.py::add\nmath.floor\n```"),
      new Error("connection reset"),
    ]);
    const result = await autofl(input(model, { runs: 4, maxCalls: 2 }));

    const [run1, run2, run3] = result.runs;
    expect(result.runs).toHaveLength(3);
    expect(run1?.toolCalls.map((c) => c.name)).toEqual(["get_covered_classes", "get_code_snippet"]);
    expect(toolResults(run1?.messages ?? [])[0]).toMatch(/\n\(1 function call left\.\)$/);
    expect(toolResults(run1?.messages ?? [])[1]).toMatch(
      /\n\(No function calls left: answer with what you have\.\)$/,
    );
    expect(toolResults(run1?.messages ?? [])[2]).toContain("budget is used up");
    expect(run1?.problem).toMatch(/^stage 2 named no function of the project/);
    expect(run2?.predicted).toEqual(["calc.ops.add"]);
    expect(run2?.unmatched).toEqual(["math.floor (no such function)"]);
    expect(run3?.problem).toBe("model call failed: connection reset");
    expect(result.entries[0]).toMatchObject({ function: "add", score: 1 });
    expect(result.agreement).toBeCloseTo(1 / 3);
    expect(result.contributed).toBe(true);
  });

  it("reports no contribution when every run fails", async () => {
    const turns: ScriptedTurn[] = [new Error("401 Incorrect API key provided")];
    const result = await autofl(input(new ScriptedModel(turns)));
    expect(result.contributed).toBe(false);
    expect(result.runs).toHaveLength(1);
    expect(result.entries.map((e) => e.score)).toEqual([0, 0, 0, 0]);
  });
});
