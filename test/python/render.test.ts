import { describe, expect, it } from "vitest";
import { formatFrames, minimizeFrames, type RawFrame } from "../../src/lang/frames.js";
import type { DebugResult, RawRun, TraceResult } from "../../src/lang/python/protocol.js";
import { renderValues } from "../../src/lang/experiment.js";
import { renderDebugger, renderTrace, runOutcome } from "../../src/lang/python/render.js";

const frame = (file: string, line: number, fn: string, repo = true): RawFrame => ({
  file,
  line,
  function: fn,
  code: `code ${line}`,
  repo,
});

describe("minimizeFrames", () => {
  it("drops library frames and keeps the repository's in order", () => {
    const frames = [
      frame("/usr/lib/python3/dist-packages/_pytest/runner.py", 339, "from_call", false),
      frame("tests/test_x.py", 5, "test_x"),
      frame("/usr/lib/python3.11/json/__init__.py", 10, "loads", false),
      frame("pkg/x.py", 9, "parse"),
    ];
    expect(minimizeFrames(frames).map((f) => `${f.file}:${f.line}`)).toEqual([
      "tests/test_x.py:5",
      "pkg/x.py:9",
    ]);
  });

  it("collapses a frame repeated more than 5 times, and a repeated pair", () => {
    const recursion = [
      frame("t.py", 1, "test"),
      ...Array.from({ length: 900 }, () => frame("m.py", 2, "depth")),
    ];
    const out = minimizeFrames(recursion);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ file: "m.py", line: 2, repeated: 899 });
    expect(formatFrames(out)).toContain("[the frame above repeated 899 more times]");

    const mutual = Array.from({ length: 7 }, () => [
      frame("m.py", 3, "even"),
      frame("m.py", 7, "odd"),
    ]).flat();
    const collapsed = minimizeFrames(mutual);
    expect(collapsed).toHaveLength(2);
    expect(collapsed[1]).toMatchObject({ repeated: 6, period: 2 });
  });

  it("keeps runs of 5 or fewer as they are", () => {
    const five = Array.from({ length: 5 }, () => frame("m.py", 2, "f"));
    expect(minimizeFrames(five)).toHaveLength(5);
  });
});

const run = (over: Partial<RawRun> = {}): RawRun => ({
  tests: [],
  errors: [],
  collectFailures: [],
  timedOut: false,
  hungTest: null,
  exitCode: 1,
  durationMs: 10,
  setAside: [],
  testFiles: [],
  ...over,
});
const failed = (type: string, message: string): RawRun =>
  run({ tests: [{ id: "t", outcome: "failed", durationMs: 1, failure: { type, message, frames: [] } }] });

describe("debugger observations", () => {
  const debug = (over: Partial<DebugResult>): DebugResult => ({
    file: "calc/stats.py",
    run: failed("AssertionError", "assert 6 == 10"),
    hits: [],
    total: 0,
    reached: [],
    ...over,
  });

  it("uses AutoSD's loop sentence for several hits and the bare value for one", () => {
    const hits = [[{ value: "0" }], [{ value: "1" }], [{ value: "3" }]];
    expect(renderDebugger(debug({ hits, total: 3 }), 4, ["s"])).toBe(
      "At each loop execution, the expression was: [0, 1, 3]",
    );
    expect(renderDebugger(debug({ hits: [[{ value: "'x'" }]], total: 1 }), 4, ["s"])).toBe("'x'");
    expect(renderValues([{ value: "1" }, { value: "2" }], 250)).toBe(
      "At each loop execution, the expression was: [1, 2] (the first 2 of 250 executions)",
    );
  });

  it("reports every print and expression errors as observations", () => {
    const hits = [
      [{ value: "0" }, { error: "NameError: name 'zz' is not defined" }],
      [{ value: "1" }, { error: "NameError: name 'zz' is not defined" }],
    ];
    expect(renderDebugger(debug({ hits, total: 2 }), 4, ["s", "zz"])).toBe(
      "s: At each loop execution, the expression was: [0, 1]\n" +
        "zz: NameError: name 'zz' is not defined (at each of the 2 executions)",
    );
  });

  it("says a breakpoint was never reached and names the nearest lines that were", () => {
    expect(renderDebugger(debug({ reached: [2, 3, 4, 5, 20, 30] }), 14, ["xs"])).toBe(
      "The breakpoint at calc/stats.py:14 was never reached by the test. " +
        "Lines of calc/stats.py the test did execute nearest to it: 2, 3, 4, 5, 20. " +
        "The test ended with AssertionError: assert 6 == 10",
    );
    expect(
      renderDebugger(debug({ run: run({ tests: [{ id: "t", outcome: "passed", durationMs: 1 }] }) }), 3, [
        "x",
      ]),
    ).toBe(
      "The breakpoint at calc/stats.py:3 was never reached: the test did not execute any line of calc/stats.py.",
    );
  });
});

describe("edit-and-run observations", () => {
  it("is the exception, or [No exception triggered]", () => {
    expect(runOutcome(failed("ZeroDivisionError", "division by zero"))).toBe(
      "ZeroDivisionError: division by zero",
    );
    expect(runOutcome(run({ tests: [{ id: "t", outcome: "passed", durationMs: 1 }] }))).toBe(
      "[No exception triggered]",
    );
    const syntax = run({
      collectFailures: [
        { nodeid: "tests/t.py", type: "SyntaxError", message: "invalid syntax (a.py, line 2)", frames: [] },
      ],
    });
    expect(runOutcome(syntax)).toBe("SyntaxError: invalid syntax (a.py, line 2)");
    expect(runOutcome(run({ errors: ["ERROR: not found: tests/t.py::nope"] }))).toBe(
      "ERROR: not found: tests/t.py::nope",
    );
  });
});

describe("block trace rendering", () => {
  const block = (index: number) => ({
    index,
    startLine: 3,
    endLine: 4,
    before: { i: String(index - 1) },
    after: { i: String(index) },
    code: "    i += 1\n    s += i",
  });
  const trace = (total: number, indexes: number[]): TraceResult => ({
    file: "m.py",
    run: run(),
    total,
    blocks: indexes.map(block),
  });

  it("shows the first 5 and last 5 blocks of a long trace, with code and variables", () => {
    const { rendered } = renderTrace(
      trace(12, [1, 2, 3, 4, 5, 8, 9, 10, 11, 12]),
      "f",
      "t.py::t",
      "[No exception triggered]",
    );
    expect(rendered.split("\n").slice(0, 6)).toEqual([
      "Trace of f (m.py) in t.py::t: 12 blocks; the first 5 and the last 5 are shown.",
      "[Block 1] lines 3-4",
      "    i += 1",
      "    s += i",
      "  before: i = 0",
      "  after:  i = 1",
    ]);
    expect(rendered).toContain("  after:  i = 5\n[... 2 blocks omitted ...]\n[Block 8] lines 3-4");
    expect(rendered.endsWith("The test ended with: [No exception triggered]")).toBe(true);
  });

  it("says when the test never called the function", () => {
    expect(renderTrace(trace(0, []), "f", "t.py::t", "AssertionError: x").rendered).toBe(
      "The test t.py::t never called f (m.py). The test ended with: AssertionError: x",
    );
    expect(renderTrace(trace(1, [1]), "f", "t", "x").rendered).toMatch(
      /^Trace of f \(m.py\) in t: 1 block\.\n/,
    );
  });
});
