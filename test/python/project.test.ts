import { describe, expect, it } from "vitest";
import {
  choosePython,
  declaredExtras,
  detectSetup,
  pythonFromCiLog,
  requiresPython,
} from "../../src/lang/python/project.js";

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
const AVAILABLE = ["3.9", "3.11", "3.13"];

describe("detectSetup", () => {
  it("installs every requirements file, requirements.txt first, then nothing else for a plain folder", () => {
    expect(
      detectSetup(files({ "requirements-dev.txt": "", "requirements.txt": "", "requirements-test.txt": "" })),
    ).toEqual({
      commands: [
        ["pip", "install", "-r", "requirements.txt"],
        ["pip", "install", "-r", "requirements-dev.txt"],
        ["pip", "install", "-r", "requirements-test.txt"],
      ],
      source: "detected: requirements.txt, requirements-dev.txt, requirements-test.txt",
    });
  });

  it("installs an installable project with its first test extra, after the requirements", () => {
    const pyproject = '[project]\nname = "x"\n[project.optional-dependencies]\ndev = ["a"]\ntests = ["b"]\n';
    expect(detectSetup(files({ "pyproject.toml": pyproject, "requirements.txt": "" }))?.commands).toEqual([
      ["pip", "install", "-r", "requirements.txt"],
      ["pip", "install", "-e", ".[tests]"],
    ]);
    expect(detectSetup(files({ "pyproject.toml": pyproject }))?.source).toBe(
      "detected: pyproject.toml [tests]",
    );
  });

  it("installs without an extra when none of test, tests, dev is declared; setup.py counts, with setup.cfg's extras", () => {
    expect(detectSetup(files({ "pyproject.toml": '[build-system]\nrequires = ["x"]\n' }))?.commands).toEqual([
      ["pip", "install", "-e", "."],
    ]);
    expect(detectSetup(files({ "setup.py": "" }))?.commands).toEqual([["pip", "install", "-e", "."]]);
    const cfg = "[metadata]\nname = x\n[options.extras_require]\ntest =\n    pytest-mock\n";
    expect(detectSetup(files({ "setup.py": "", "setup.cfg": cfg }))?.commands).toEqual([
      ["pip", "install", "-e", ".[test]"],
    ]);
  });

  it("installs nothing for a setup.cfg without setup.py or pyproject.toml, which pip refuses", () => {
    const cfg = "[metadata]\nname = x\n[options]\npackages = find:\n[tool:pytest]\ntestpaths = tests\n";
    expect(detectSetup(files({ "setup.cfg": cfg }))).toBe(undefined);
  });

  it("finds nothing for a pyproject.toml that only configures tools", () => {
    expect(
      detectSetup(files({ "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['tests']\n" })),
    ).toBe(undefined);
    expect(detectSetup(files({ "pyproject.toml": "not toml [[" }))).toBe(undefined);
  });

  it("reads Poetry's extras too", () => {
    expect([...declaredExtras(files({ "pyproject.toml": "[tool.poetry.extras]\ntest = ['x']\n" }))]).toEqual([
      "test",
    ]);
  });
});

describe("Python version selection", () => {
  it("takes python_version first, the next newer image when it has none", () => {
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", configured: "3.9" })).toEqual({
      version: "3.9",
      reason: "python_version",
    });
    expect(
      choosePython({ available: AVAILABLE, fallback: "3.11", configured: "3.12", requires: ">=3.13" }),
    ).toEqual({
      version: "3.13",
      reason: "python_version",
      asked: "3.12",
    });
  });

  it("takes requires-python next: the default when it satisfies it, else the oldest that does", () => {
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", requires: ">=3.8" }).version).toBe("3.11");
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", requires: ">=3.13" })).toEqual({
      version: "3.13",
      reason: "requires-python",
    });
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", requires: "<3.10,>=3.8" }).version).toBe(
      "3.9",
    );
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", requires: ">=3.11.4" }).version).toBe(
      "3.11",
    );
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", requires: ">=3.20" })).toEqual({
      version: "3.13",
      reason: "requires-python",
      asked: ">=3.20",
    });
  });

  it("takes the CI job's version next, then the default", () => {
    const ciLog =
      "Run actions/setup-python@v5\n  with:\n    python-version: 3.10\nSuccessfully set up CPython (3.10.14)";
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", ciLog })).toEqual({
      version: "3.11",
      reason: "CI log",
      asked: "3.10",
    });
    expect(choosePython({ available: AVAILABLE, fallback: "3.11", ciLog: "no version here" })).toEqual({
      version: "3.11",
      reason: "default",
    });
  });

  it("reads the version from pytest's header before setup-python's lines", () => {
    expect(pythonFromCiLog("python-version: '3.12'\nplatform linux -- Python 3.9.18, pytest-7.4.0")).toBe(
      "3.9",
    );
    expect(pythonFromCiLog('    python-version: "3.13"\n')).toBe("3.13");
    expect(pythonFromCiLog(undefined)).toBe(undefined);
  });

  it("reads requires-python from [project], else Poetry's exact python dependency", () => {
    expect(requiresPython('[project]\nrequires-python = ">=3.13"\n')).toBe(">=3.13");
    expect(requiresPython('[tool.poetry.dependencies]\npython = ">=3.9,<4"\n')).toBe(">=3.9,<4");
    expect(requiresPython('[tool.poetry.dependencies]\npython = "^3.9"\n')).toBe(undefined);
    expect(requiresPython(undefined)).toBe(undefined);
  });
});
