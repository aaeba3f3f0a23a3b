import { describe, expect, it } from "vitest";
import { PYTHON_PROMPTS } from "../../src/lang/python/prompt-words.js";
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

describe("AutoFL's get_covered_classes under a src layout", () => {
  const covered = (files: string[]): ToolContext => {
    const functions = files.map((file) => ({ file, qualname: "run", startLine: 1, endLine: 2 }));
    return {
      functions,
      coveredByTest: new Set(functions.map((f) => `${f.file}::${f.qualname}`)),
      coveredByFailing: new Set(),
      source: async () => undefined,
      lookedAt: new Map(),
      importOf: (file) => PYTHON_PROMPTS.importOf(file),
    };
  };
  const call = { id: "c1", name: "get_covered_classes", arguments: "{}" };

  it("says how the tests import a module whose qualified name has the src folder", async () => {
    const outcome = await runTool(call, covered(["src/shift/plan.py", "tools/io.py"]));
    expect(JSON.parse(outcome.content.split("\n")[0]!)).toEqual({
      modules: ["src.shift.plan", "tools.io"],
      classes: [],
      imported_by_tests_as: { "src.shift.plan": "from shift.plan import ..." },
    });
  });

  it("says nothing more when every module is imported by its qualified name", async () => {
    const outcome = await runTool(call, covered(["tools/io.py"]));
    expect(JSON.parse(outcome.content.split("\n")[0]!)).toEqual({ modules: ["tools.io"], classes: [] });
  });
});
