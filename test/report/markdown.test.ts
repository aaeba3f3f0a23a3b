import { describe, expect, it } from "vitest";
import { cell, fenced, markdownProblems, summaryText } from "../../src/report/markdown.js";
import { codeSpan as code } from "../../src/text.js";

describe("markdown helpers", () => {
  it("fences with more backticks than the content's longest run", () => {
    expect(fenced("a ``` b")).toBe("````\na ``` b\n````");
    expect(fenced("plain", "diff")).toBe("```diff\nplain\n```");
  });

  it("makes inline code that survives backticks and newlines", () => {
    expect(code("x")).toBe("`x`");
    expect(code("a`b")).toBe("`` a`b ``");
    expect(code("a\n  b")).toBe("`a b`");
  });

  it("escapes table pipes and summary HTML", () => {
    expect(cell("a | b\nc")).toBe("a \\| b c");
    expect(summaryText("if `a < b` <b>")).toBe("if <code>a &lt; b</code> &lt;b&gt;");
  });

  it("finds unbalanced details, stray summaries and unclosed fences", () => {
    expect(markdownProblems("<details><summary>x</summary>\n")).toEqual(["<details> is never closed"]);
    expect(markdownProblems("<summary>x</summary>")).toEqual(["line 1: <summary> outside <details>"]);
    expect(markdownProblems("```\n<details>\n")).toEqual(["a code fence is never closed"]);
    expect(markdownProblems("````\n```\n<details>\n````\n")).toEqual([]);
    expect(markdownProblems("`<details>` is a tag")).toEqual([]);
  });
});
