import { parseExperiment, type ExperimentSyntax } from "../experiment.js";
import type { FileRules } from "../types.js";
import { isTestFile } from "./test-files.js";

/** Who the Python language is, for the Language and its Runtime alike. */
export const PYTHON_NAMES = { id: "python", name: "Python", testRunner: "pytest" } as const;

/** Python's packaging and tool files, lowercased: running them is what installs or starts the code. */
const BUILD_NAMES = new Set([
  "tox.ini",
  "noxfile.py",
  "setup.py",
  "setup.cfg",
  "pyproject.toml",
  "pipfile",
  "pipfile.lock",
  "poetry.lock",
  "manifest.in",
  // Run by Python itself at start-up, before any test.
  "sitecustomize.py",
  "usercustomize.py",
]);

/** Which files of a Python repository are what (test-files.ts has the test rules shared with the helpers). */
export const pythonFiles: FileRules = {
  isTestFile,
  isSourceFile: (path) => path.endsWith(".py"),
  sourceFiles: "a Python source file (.py)",
  isBuildFile(lowerPath) {
    const parts = lowerPath.split("/");
    const name = parts.at(-1) ?? "";
    return (
      BUILD_NAMES.has(name) ||
      /^requirements.*\.(txt|in)$/.test(name) ||
      parts.slice(0, -1).includes("requirements")
    );
  },
  // A pytest node id is `path/to/test_x.py::Class::test[param]`.
  testFileOf: (testId) => testId.split("::")[0]!,
};

/** The experiment language over Python files. */
export const PYTHON_SYNTAX: ExperimentSyntax = { extension: "py", printStatement: "print(x)" };

/** Parses one AutoSD experiment about Python files. */
export const parsePythonExperiment = (text: string) => parseExperiment(text, PYTHON_SYNTAX);
