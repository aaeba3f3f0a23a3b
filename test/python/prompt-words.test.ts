import { describe, expect, it } from "vitest";
import type { FunctionInfo } from "../../src/lang/types.js";
import {
  PYTHON_PROMPTS,
  pythonConstructors,
  pythonImportName,
  pythonModuleSummary,
} from "../../src/lang/python/prompt-words.js";

const source = [
  '"""Release versions."""',
  "",
  "from __future__ import annotations",
  "from typing import (",
  "    Optional,",
  "    Tuple,",
  ")",
  "from dataclasses import dataclass",
  "",
  "OPERATORS = {",
  '    "==": "eq",',
  '    "!=": "ne",',
  "}",
  "",
  "",
  "@dataclass(frozen=True, eq=False)",
  "class Version:",
  '    """One release."""',
  "",
  "    release: Tuple[int, ...]",
  "    label: str = ''",
  "",
  "    @classmethod",
  "    def parse(cls, text: str) -> Version:",
  "        return cls(tuple(int(p) for p in text.split('.')))",
  "",
  "    @property",
  "    def key(self) -> Tuple[int, ...]:",
  "        # trailing zeros dropped",
  "        return self.release",
  "",
  "",
  "class Pool:",
  "    def __init__(self, size: int,",
  "                 name: Optional[str] = None):",
  "        self.size = size",
  "",
  "    @staticmethod",
  "    def default() -> Pool:",
  "        return Pool(1)",
  "",
].join("\n");
const functions: FunctionInfo[] = [
  { file: "src/pkg/versions.py", qualname: "Version.parse", startLine: 23, endLine: 25 },
  { file: "src/pkg/versions.py", qualname: "Version.key", startLine: 27, endLine: 30 },
  { file: "src/pkg/versions.py", qualname: "Pool.__init__", startLine: 34, endLine: 36 },
  { file: "src/pkg/versions.py", qualname: "Pool.default", startLine: 38, endLine: 40 },
];

describe("Python's prompt words", () => {
  it("summarizes a module as a stub: whole statements, decorators, class fields, headers with `...`", () => {
    expect(pythonModuleSummary(source, "src/pkg/versions.py", functions).split("\n")).toEqual([
      "from __future__ import annotations",
      "from typing import (Optional, Tuple)",
      "from dataclasses import dataclass",
      "OPERATORS = {",
      '    "==": "eq",',
      '    "!=": "ne",',
      "}",
      "@dataclass(frozen=True, eq=False)",
      "class Version:",
      "    release: Tuple[int, ...]",
      "    label: str = ''",
      "    @classmethod",
      "    def parse(cls, text: str) -> Version: ...",
      "    @property",
      "    def key(self) -> Tuple[int, ...]: ...",
      "class Pool:",
      "    def __init__(self, size: int, name: Optional[str] = None): ...",
      "    @staticmethod",
      "    def default() -> Pool: ...",
    ]);
    expect(pythonModuleSummary("", "a.py", [])).toBe("(nothing at module level)");
  });

  it("caps a long statement and says how many lines it left out", () => {
    const long = ["TABLE = [", ...Array.from({ length: 20 }, (_, i) => `    ${i},`), "]"].join("\n");
    const lines = pythonModuleSummary(long, "t.py", []).split("\n");
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)).toBe("    ... (14 more lines)");
  });

  it("names a module as the tests import it: by the test's own imports, else without a src folder", () => {
    expect(pythonImportName("src/shiftplan/roster.py")).toBe("shiftplan.roster");
    expect(pythonImportName("shiftplan/__init__.py")).toBe("shiftplan");
    expect(
      pythonImportName("lib/shiftplan/roster.py", "import os\nfrom shiftplan.roster import Roster\n"),
    ).toBe("shiftplan.roster");
    expect(pythonImportName("src/app.py", "from src.app import main\n")).toBe("src.app");
    expect(PYTHON_PROMPTS.importOf("src/shiftplan/roster.py")).toBe("from shiftplan.roster import ...");
  });

  it("lists the ways to build each class: __init__, a dataclass's fields, class and static methods", () => {
    expect(pythonConstructors(source, "src/pkg/versions.py", functions)).toEqual([
      "Version(release: Tuple[int, ...], label: str = '')",
      "Version.parse(text: str) -> Version",
      "Pool(size: int, name: Optional[str] = None)",
      "Pool.default() -> Pool",
    ]);
    expect(pythonConstructors("class A:\n    pass\n", "a.py", [])).toEqual(["A()"]);
  });
});
