import { describe, expect, it } from "vitest";
import { applyEdits, formatEdits, parseEdits } from "../../bench/corpus-tools/edits.js";

const SOURCE = [
  "def f(xs):",
  "    total = 0",
  "    for x in xs:",
  "        total -= x",
  "    return total",
].join("\n");

describe("inverse edits", () => {
  it("parses REPLACE, ADD and DEL joined with AND, with an optional RUN", () => {
    const edits = parseEdits(
      'REPLACE(4, "-=", "+=") AND ADD(2, "    seen = []") AND DEL(5, "return") AND RUN',
    );
    expect(edits).toEqual([
      { op: "replace", line: 4, old: "-=", text: "+=" },
      { op: "add", line: 2, text: "    seen = []" },
      { op: "del", line: 5, old: "return" },
    ]);
    expect(parseEdits(formatEdits(edits))).toEqual(edits);
  });
  it("reads texts as JSON strings, quotes and backslashes included", () => {
    expect(parseEdits('REPLACE(1, "a \\"b\\"", "c\\\\d")')).toEqual([
      { op: "replace", line: 1, old: 'a "b"', text: "c\\d" },
    ]);
  });
  it("applies every edit against the original line numbers", () => {
    const out = applyEdits(SOURCE, parseEdits('ADD(2, "    seen = 1") AND REPLACE(4, "-=", "+=")'));
    expect(out.split("\n")).toEqual([
      "def f(xs):",
      "    seen = 1",
      "    total = 0",
      "    for x in xs:",
      "        total += x",
      "    return total",
    ]);
  });
  it("refuses malformed edits and text that is not on the line", () => {
    expect(() => parseEdits('REPLACE(4, "-=")')).toThrow(/comma/);
    expect(() => parseEdits('REPLACE(4, "-=", "+=") OR RUN')).toThrow(/AND/);
    expect(() => parseEdits("DROP(1)")).toThrow(/REPLACE/);
    expect(() => applyEdits(SOURCE, parseEdits('REPLACE(2, "-=", "+=")'))).toThrow(/does not contain/);
    expect(() => applyEdits(SOURCE, parseEdits('DEL(9, "x")'))).toThrow(/past the end/);
  });
});
