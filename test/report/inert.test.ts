import { describe, expect, it } from "vitest";
import { cell, code, codeBlock, mention, summary, text } from "../../src/report/inert.js";
import { rendered } from "../helpers/markdown.js";

describe("inert Markdown from untrusted text", () => {
  it("keeps code spans as code, with a fence longer than any backtick run inside", () => {
    expect(text("call `f(x)` here")).toBe("call `f(x)` here");
    expect(code("a``b")).toBe("``` a``b ```");
    expect(rendered(text("x ```` `a```b` ````")).code).toEqual(["`a```b`"]);
    expect(rendered(code("`")).code).toEqual(["`"]);
  });

  it("renders prose exactly as written: no HTML, links, emphasis or block structure", () => {
    const hostile = "# Title <img src=x> [l](http://e) *b* a|b \\ & &amp;";
    const r = rendered(text(hostile));
    expect(r.html).toEqual([]);
    expect(r.links).toEqual([]);
    expect(r.headings).toEqual([]);
    expect(r.prose.join("")).toBe("# Title <img src=x> [l](http:\u200b//e) *b* a|b \\ & &amp;");
    expect(rendered(`- ${text("1. nested")}`).prose.join("")).toBe("1. nested");
  });

  it("neutralises mentions, team mentions and cross references in prose and summaries", () => {
    const r = rendered(text("ping @alice and @org/team about #123 and GH-7"));
    expect(r.mentions).toEqual([]);
    expect(r.prose.join("").replace(/\u200b/g, "")).toBe("ping @alice and @org/team about #123 and GH-7");
    expect(rendered(`<details><summary>${summary("@org/team #9")}</summary>\n\n</details>`).mentions).toEqual(
      [],
    );
    // The same words with no escaping would be live: the check can fail.
    expect(rendered("ping @alice and @org/team about #123").mentions).toEqual([
      "@alice",
      "@org/team",
      "#123",
    ]);
  });

  it("keeps a mention live only for a real login", () => {
    expect(mention("writer")).toBe("@writer");
    expect(mention("dependabot[bot]")).toBe("@dependabot[bot]");
    expect(rendered(mention("x <img> @org/t")).html).toEqual([]);
  });

  it("escapes pipes in table cells, also inside code spans", () => {
    const table = `| a | b |\n|---|---|\n| ${cell("x | `y|z`")} | 2 |`;
    const r = rendered(table);
    expect(r.tables).toBe(1);
    expect(r.code).toEqual(["y|z"]);
  });

  it("caps length with an ellipsis", () => {
    expect(text("a".repeat(50), { max: 10 })).toBe(`${"a".repeat(9)}…`);
    expect(summary("b".repeat(500)).length).toBeLessThanOrEqual(160);
    expect(codeBlock("x".repeat(30), "", { max: 10 })).toContain("(20 more characters not shown)");
  });

  it("fences blocks longer than any backtick run and drops a hostile info string", () => {
    expect(codeBlock("a ``` b")).toBe("````\na ``` b\n````");
    expect(codeBlock("plain", "diff")).toBe("```diff\nplain\n```");
    expect(codeBlock("x", "js onload=1")).toBe("```\nx\n```");
  });
});
