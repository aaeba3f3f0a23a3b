import { describe, expect, it } from "vitest";
import { applyEdits, formatEdit, type Edit } from "../../src/lang/experiment.js";
import { parsePythonExperiment as parseExperiment } from "../../src/lang/python/index.js";

const ok = (input: string) => {
  const parsed = parseExperiment(input);
  if (!parsed.ok) throw new Error(`expected to parse: ${parsed.error}`);
  return parsed.experiment;
};
const error = (input: string) => {
  const parsed = parseExperiment(input);
  if (parsed.ok) throw new Error(`expected an error for ${input}`);
  return parsed.error;
};

describe("parseExperiment: debugger", () => {
  it("reads breakpoint and every print, in backticks or not", () => {
    expect(ok("`b calc/stats.py:4 ;; c ;; p s ;; p xs[i]`")).toEqual({
      kind: "debugger",
      file: "calc/stats.py",
      line: 4,
      exprs: ["s", "xs[i]"],
    });
    expect(ok("break 12 ;; continue ;; print(len(x))")).toEqual({
      kind: "debugger",
      file: undefined,
      line: 12,
      exprs: ["len(x)"],
    });
  });

  it("keeps ;; inside a quoted expression", () => {
    expect(ok('b a.py:3 ;; c ;; p "x;;y".split(";")')).toMatchObject({ exprs: ['"x;;y".split(";")'] });
  });

  it("explains what is missing or malformed", () => {
    expect(error("b a.py:3 ;; c")).toMatch(/prints nothing/);
    expect(error("c ;; p x")).toMatch(/sets no breakpoint/);
    expect(error("b a.py ;; c ;; p x")).toMatch(/is not file.py:line/);
    expect(error("b a.py:1 ;; b a.py:2 ;; c ;; p x")).toMatch(/Only one breakpoint/);
    expect(error("b a.py:1 ;; step ;; p x")).toMatch(/Unsupported debugger command "step"/);
    expect(error("b a.py:1 ;; c ;; p 'abc")).toMatch(/Unbalanced quotes: the string starting at column 20/);
  });
});

describe("parseExperiment: edit-and-run", () => {
  it("reads REPLACE, ADD and DEL joined with AND, ending in RUN", () => {
    expect(
      ok(`REPLACE(3, "len(xs) - 1", 'len(xs)') AND ADD(4, "print(i)") AND DEL(5, "+ 1") AND RUN`),
    ).toEqual({
      kind: "edit",
      edits: [
        { op: "REPLACE", line: 3, old: "len(xs) - 1", new: "len(xs)" },
        { op: "ADD", line: 4, stmt: "print(i)" },
        { op: "DEL", line: 5, old: "+ 1" },
      ],
    });
  });

  it("handles escapes inside quotes, a file in the line, and an implied RUN", () => {
    expect(ok(String.raw`replace(calc/x.py:7, "say(\"hi\")", 'it\'s\n\\') and run`)).toEqual({
      kind: "edit",
      edits: [{ op: "REPLACE", line: 7, file: "calc/x.py", old: 'say("hi")', new: "it's\n\\" }],
    });
    expect(ok('ADD(2, "x = 1")')).toMatchObject({ edits: [{ op: "ADD", line: 2, stmt: "x = 1" }] });
  });

  it("rejects malformed input with a message that says where and how", () => {
    expect(error('REPLACE(3, "a, "b") AND RUN')).toMatch(
      /Expected "," and a quoted argument of REPLACE at column 17/,
    );
    expect(error('REPLACE(3, "a", "b) AND RUN')).toMatch(
      /Unbalanced quotes: the string starting at column 17/,
    );
    expect(error('REPLACE(3, "a") AND RUN')).toMatch(/Expected "," and a quoted argument of REPLACE/);
    expect(error('REPLACE(x, "a", "b") AND RUN')).toMatch(/Expected a line number at column 9/);
    expect(error('SWAP(3, "a") AND RUN')).toMatch(/Unknown edit command at column 1: "SWAP/);
    expect(error('ADD(3, "a") AND RUN AND ADD(4, "b")')).toMatch(/RUN must come last/);
    expect(error('ADD(3, "a") OR DEL(3, "b")')).toMatch(/Expected AND or RUN/);
    expect(error('REPLACE(0, "a", "b") AND RUN')).toMatch(/start at 1/);
    expect(error("RUN")).toMatch(/RUN alone changes nothing/);
    expect(error('DEL(3, "") AND RUN')).toMatch(/empty old text/);
  });
});

describe("parseExperiment: trace and unknown forms", () => {
  it("reads trace file:qualname", () => {
    expect(ok("trace calc/grade.py:Grader.grade")).toEqual({
      kind: "trace",
      file: "calc/grade.py",
      qualname: "Grader.grade",
    });
    expect(error("trace grade")).toMatch(/needs file.py:function/);
  });

  it("lists the accepted forms for anything else", () => {
    const message = error("print the value of x");
    expect(message).toMatch(/Unrecognised experiment/);
    expect(message).toMatch(/b path\/to\/file.py:12 ;; c ;; p expression/);
    expect(message).toMatch(/REPLACE\(4, "old", "new"\)/);
    expect(error("   ")).toMatch(/empty/);
  });
});

describe("applyEdits", () => {
  const source = [
    "def total(xs):",
    "    s = 0",
    "    for i in range(len(xs) - 1):",
    "        s += xs[i]",
    "    return s",
    "",
  ].join("\n");

  it("uses original line numbers even after earlier edits insert and delete lines", () => {
    const edits: Edit[] = [
      { op: "ADD", line: 2, stmt: "print(xs)" },
      { op: "DEL", line: 2, old: "s = 0" },
      { op: "ADD", line: 4, stmt: "if i:\n    print(s)" },
      { op: "REPLACE", line: 3, old: "len(xs) - 1", new: "len(xs)" },
      { op: "REPLACE", line: 5, old: "s", new: "s + 0" },
    ];
    const result = applyEdits(source, edits);
    expect(result.problems).toEqual([]);
    expect(result.source).toBe(
      [
        "def total(xs):",
        "    print(xs)",
        "    for i in range(len(xs)):",
        "        if i:",
        "            print(s)",
        "        s += xs[i]",
        "    return s + 0",
        "",
      ].join("\n"),
    );
  });

  it("reports a REPLACE whose old text is not on the line, quoting the line", () => {
    const result = applyEdits(source, [{ op: "REPLACE", line: 4, old: "xs[j]", new: "xs[i]" }]);
    expect(result.source).toBe(source);
    expect(result.problems).toEqual([
      'REPLACE(4, "xs[j]", "xs[i]") was not applied: line 4 does not contain "xs[j]". Line 4 is: "s += xs[i]"',
    ]);
  });

  it("reports lines past the end and edits of deleted lines", () => {
    const result = applyEdits(source, [
      { op: "DEL", line: 2, old: "s = 0" },
      { op: "REPLACE", line: 2, old: "s", new: "t" },
      { op: "DEL", line: 40, old: "x" },
    ]);
    expect(result.problems[0]).toMatch(/line 2 was already deleted/);
    expect(result.problems[1]).toMatch(/the file has only 5 lines/);
  });

  it("keeps an ADD given with its own indentation as written", () => {
    expect(applyEdits("def f():\n    return 1\n", [{ op: "ADD", line: 2, stmt: "  x = 1" }]).source).toBe(
      "def f():\n  x = 1\n    return 1\n",
    );
  });

  it("appends with ADD at the line after the last, and keeps a file without final newline", () => {
    expect(applyEdits("a = 1", [{ op: "ADD", line: 2, stmt: "b = 2" }]).source).toBe("a = 1\nb = 2");
    expect(applyEdits("a = 1\n", [{ op: "ADD", line: 2, stmt: "b = 2" }]).source).toBe("a = 1\nb = 2\n");
  });

  it("formats edits back in the DSL", () => {
    expect(formatEdit({ op: "ADD", line: 3, file: "a.py", stmt: 'x = "y"' })).toBe(
      'ADD(a.py:3, "x = \\"y\\"")',
    );
  });
});
