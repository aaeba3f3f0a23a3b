import { describe, expect, it } from "vitest";
import { applyChanges, editsFor, lineEdits, narrow } from "../../src/lang/javascript/edits.js";
import { applyEdits, formatEditExperiment } from "../../src/lang/experiment.js";

describe("narrow", () => {
  it("takes the smallest whole-word fragment that occurs once on the line", () => {
    expect(narrow("  if (i < n) return i;", "  if (i <= n) return i;")).toEqual(["<", "<="]);
    // The second of two `<` on a line: widened until unique.
    const [old, neu] = narrow("if (a < b && c < d) {", "if (a < b && c <= d) {");
    expect("if (a < b && c < d) {".split(old).length).toBe(2);
    expect("if (a < b && c < d) {".replace(old, neu)).toBe("if (a < b && c <= d) {");
    const [o, n] = narrow("return a.b + a.c;", "return a?.b + a.c;");
    expect(["return a.b + a.c;".split(o).length, "return a.b + a.c;".replace(o, n)]).toEqual([
      2,
      "return a?.b + a.c;",
    ]);
    expect(narrow("const total = price * qty;", "const total = price / qty;")).toEqual(["*", "/"]);
    expect(narrow("x = $el.value;", "x = $el.text;")).toEqual(["value", "text"]);
  });

  it("keeps quotes balanced, backticks included", () => {
    const [old] = narrow("const s = `a ${b} c`;", "const s = `a ${d} c`;");
    expect(old.split("`").length % 2).toBe(1);
  });
});

describe("lineEdits and editsFor", () => {
  it("turns a one-token change into one REPLACE that applyEdits applies back", () => {
    const source = "function f(i, n) {\n  if (i < n) return i;\n}\n";
    const start = source.indexOf("<");
    const made = editsFor(source, [{ start, end: start + 1, text: "<=" }])!;
    expect(made.edits).toEqual([{ op: "REPLACE", line: 2, old: "<", new: "<=" }]);
    expect(applyEdits(source, made.edits).source).toBe(made.edited);
  });

  it("writes an inserted line indented as written, so ADD does not re-indent it", () => {
    const source = "function f(xs) {\n  const out = [];\n  xs.forEach((x) => out.push(x));\n}\n";
    const at = source.indexOf("));") + 3;
    const made = editsFor(source, [{ start: at, end: at, text: "\n  return out;" }])!;
    expect(made.edits).toEqual([{ op: "ADD", line: 4, stmt: "  return out;" }]);
    expect(made.edited).toBe(
      "function f(xs) {\n  const out = [];\n  xs.forEach((x) => out.push(x));\n  return out;\n}\n",
    );
  });

  it("deletes and replaces lines of a multi-line rewrite (forEach → for...of)", () => {
    const source = "async function f(xs) {\n  xs.forEach(async (x) => {\n    await g(x);\n  });\n}\n";
    const start = source.indexOf("xs.forEach");
    const open = source.indexOf("{\n    await");
    const close = source.indexOf("});") + 1;
    const made = editsFor(source, [
      { start, end: open, text: "for (const x of xs) " },
      { start: close, end: close + 2, text: "" },
    ])!;
    expect(made.edited).toBe("async function f(xs) {\n  for (const x of xs) {\n    await g(x);\n  }\n}\n");
    expect(made.edits.map((e) => e.op)).toEqual(["REPLACE", "REPLACE"]);
  });

  it("refuses what the DSL cannot say: overlapping changes, no change, a blank line deleted", () => {
    const source = "a;\n\nb;\n";
    expect(editsFor(source, [])).toBeUndefined();
    expect(editsFor(source, [{ start: 0, end: 1, text: "a" }])).toBeUndefined();
    expect(
      applyChanges(source, [
        { start: 0, end: 2, text: "x" },
        { start: 1, end: 3, text: "y" },
      ]),
    ).toBeUndefined();
    expect(lineEdits(["a;", "", "b;"], ["a;", "b;"])).toBeUndefined();
  });

  it("refuses an edit whose text would not survive the experiment's quoting (a CR in an added line)", () => {
    const source = "function f() {\r\n  g();\r\n}\r\n";
    const at = source.indexOf("g();") + 4;
    expect(editsFor(source, [{ start: at, end: at, text: "\r\n  return 1;" }])).toBeUndefined();
    // A REPLACE inside a CRLF line keeps the CR out of its fragment.
    const made = editsFor(source, [{ start: source.indexOf("g"), end: source.indexOf("g") + 1, text: "h" }])!;
    expect(made.edits).toEqual([{ op: "REPLACE", line: 2, old: "g", new: "h" }]);
    expect(made.edited).toBe("function f() {\r\n  h();\r\n}\r\n");
  });

  it("round-trips quotes, backslashes and unicode through the experiment text", () => {
    const source = 'const s = "a\\"b";\nconst t = \'é😀\\\\\';\n';
    const at = source.indexOf("t =");
    const made = editsFor(source, [{ start: at, end: at + 1, text: "u" }])!;
    expect(formatEditExperiment(made.edits)).toContain("RUN");
    expect(applyEdits(source, made.edits).source).toBe(source.replace("t =", "u ="));
  });
});
