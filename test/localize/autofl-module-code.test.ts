import { describe, expect, it } from "vitest";
import { runTool, type ToolContext } from "../../src/localize/autofl-tools.js";

const source = [
  "import re",
  "",
  "WORD = re.compile(r'[a-z]+')",
  "LIMITS = {",
  "    'max': 10,",
  "}",
  "",
  "",
  "def words(text,",
  "          limit=LIMITS['max']):",
  "    found = WORD.findall(text)",
  "    return found[:limit]",
  "",
  "",
  "class Counter:",
  "    unit = 'word'",
  "",
  "    def count(self, text):",
  "        return len(words(text))",
].join("\n");

const ctx = (): ToolContext => ({
  functions: [
    { file: "pkg/text.py", qualname: "words", startLine: 9, endLine: 12 },
    { file: "pkg/text.py", qualname: "Counter.count", startLine: 18, endLine: 19 },
    { file: "pkg/other.py", qualname: "f", startLine: 1, endLine: 2 },
  ],
  coveredByTest: new Set(),
  coveredByFailing: new Set(),
  source: async (file) => (file === "pkg/text.py" ? source.split("\n") : undefined),
  lookedAt: new Map(),
});

describe("AutoFL's get_module_code", () => {
  it("shows a module's names outside its functions, numbered, functions reduced to their headers", async () => {
    const outcome = await runTool(
      { id: "c1", name: "get_module_code", arguments: '{"name": "text"}' },
      ctx(),
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.content.split("\n")).toEqual([
      "# pkg/text.py",
      "   1 import re",
      "   3 WORD = re.compile(r'[a-z]+')",
      "   4 LIMITS = {",
      "   5     'max': 10,",
      "   6 }",
      "   9 def words(text,",
      "  10           limit=LIMITS['max']):",
      "     ...",
      "  15 class Counter:",
      "  16     unit = 'word'",
      "  18     def count(self, text):",
      "     ...",
    ]);
  });

  it("says which modules exist when the name matches none", async () => {
    const outcome = await runTool(
      { id: "c2", name: "get_module_code", arguments: '{"name": "nope"}' },
      ctx(),
    );
    expect(outcome).toEqual({
      ok: false,
      content: "Error: no module `nope` among the project's covered source files: pkg.other, pkg.text.",
    });
  });
});
