import { describe, expect, it } from "vitest";
import { planSuggestions, shownLines } from "../../src/outbound/suggestions.js";
import { suggestionBlock } from "../../src/report/inert.js";

// The pull request changes line 22 of bank.py: its diff shows lines 19-25 (three lines of context).
const PR_FILES = [
  {
    filename: "bank.py",
    status: "modified",
    patch: [
      "@@ -19,7 +19,7 @@ class Account:",
      " ",
      "     def can_withdraw(self, amount):",
      "         available = self.balance + self.overdraft",
      "-        return amount <= available",
      "+        return amount < available",
      " ",
      "     def withdraw(self, amount):",
      "         if amount <= 0:",
    ].join("\n"),
  },
  { filename: "logo.png", status: "modified" },
];

const patch = (start: number, body: string[], file = "bank.py") =>
  [`--- a/${file}`, `+++ b/${file}`, `@@ -${start},2 +${start},2 @@`, ...body, ""].join("\n");

describe("planSuggestions", () => {
  const shown = shownLines(PR_FILES);

  it("reads the right side of each hunk GitHub lists; a file without hunks shows nothing", () => {
    expect(shown.get("bank.py")).toEqual([{ start: 19, end: 25 }]);
    expect(shown.has("logo.png")).toBe(false);
  });

  it("a one-line change on a shown line is one single-line suggestion of the new text", () => {
    const plan = planSuggestions(
      [
        "--- a/bank.py",
        "+++ b/bank.py",
        "@@ -21,3 +21,3 @@",
        "         available = self.balance + self.overdraft",
        "-        return amount < available",
        "+        return amount <= available",
        " ",
        "",
      ].join("\n"),
      shown,
    );
    expect(plan).toEqual({
      suggestions: [
        { path: "bank.py", startLine: 22, line: 22, replacement: ["        return amount <= available"] },
      ],
    });
  });

  it("a change spanning lines is one multi-line suggestion over the removed lines", () => {
    const plan = planSuggestions(
      [
        "--- a/bank.py",
        "+++ b/bank.py",
        "@@ -21,3 +21,2 @@",
        "-        available = self.balance + self.overdraft",
        "-        return amount < available",
        "+        return amount <= self.balance + self.overdraft",
        " ",
        "",
      ].join("\n"),
      shown,
    );
    expect(plan).toEqual({
      suggestions: [
        {
          path: "bank.py",
          startLine: 21,
          line: 22,
          replacement: ["        return amount <= self.balance + self.overdraft"],
        },
      ],
    });
  });

  it("a pure insertion hangs on the line before it, which it repeats", () => {
    const plan = planSuggestions(
      [
        "--- a/bank.py",
        "+++ b/bank.py",
        "@@ -21,2 +21,3 @@",
        "         available = self.balance + self.overdraft",
        "+        assert available >= 0",
        "         return amount < available",
        "",
      ].join("\n"),
      shown,
    );
    expect(plan).toEqual({
      suggestions: [
        {
          path: "bank.py",
          startLine: 21,
          line: 21,
          replacement: ["        available = self.balance + self.overdraft", "        assert available >= 0"],
        },
      ],
    });
  });

  it("the other side: a line outside the diff, a file the pull request does not change, a new file", () => {
    expect(planSuggestions(patch(40, [" a", "-b", "+c"]), shown)).toEqual({
      unfit: "line 41 of bank.py is not within one hunk of the pull request's diff",
    });
    expect(planSuggestions(patch(1, [" a", "-b", "+c"], "other.py"), shown)).toEqual({
      unfit: "other.py is not changed by the pull request",
    });
    const added = ["--- /dev/null", "+++ b/new.py", "@@ -0,0 +1 @@", "+x = 1", ""].join("\n");
    expect(planSuggestions("@@ -1,9 +1,1 @@\n-a\n+b\n", shown)).toMatchObject({ unfit: expect.any(String) });
    expect(planSuggestions(added, shown)).toMatchObject({
      unfit: expect.stringContaining("adds, deletes or renames"),
    });
  });

  it("every hunk must fit: one outside the diff makes the whole patch unfit", () => {
    const two = [
      "--- a/bank.py",
      "+++ b/bank.py",
      "@@ -22,1 +22,1 @@",
      "-        return amount < available",
      "+        return amount <= available",
      "@@ -40,1 +40,1 @@",
      "-x",
      "+y",
      "",
    ].join("\n");
    expect(planSuggestions(two, shown)).toMatchObject({ unfit: expect.stringContaining("line 40") });
  });
});

describe("suggestionBlock", () => {
  it("fences the lines longer than any backtick run in them, verbatim", () => {
    expect(suggestionBlock(["x = 1"])).toBe("```suggestion\nx = 1\n```");
    const hostile = ['s = """', "````", '"""  # @admin #12 <img src=x>'];
    const block = suggestionBlock(hostile)!;
    expect(block.startsWith("`````suggestion\n")).toBe(true);
    expect(block.endsWith("\n`````")).toBe(true);
    expect(block.split("\n").slice(1, -1)).toEqual(hostile);
  });

  it("an empty suggestion deletes the lines", () => {
    expect(suggestionBlock([])).toBe("```suggestion\n```");
  });

  it("the other side: control characters or past the cap cannot be posted verbatim", () => {
    expect(suggestionBlock(["x = '\u202e'"])).toBeUndefined();
    expect(suggestionBlock(["x"], { max: 0 })).toBeUndefined();
  });
});
