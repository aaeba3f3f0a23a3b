import { describe, expect, it } from "vitest";
import { Budget } from "../../src/debug/budget.js";
import { forbiddenPath, normalizeRepoPath } from "../../src/debug/guards.js";
import { pythonFiles } from "../../src/lang/python/index.js";

describe("forbiddenPath", () => {
  const rules = { files: pythonFiles, sourcePaths: [], ignorePaths: ["vendor"] };

  it("allows repository source files", () => {
    expect(forbiddenPath("bank.py", rules)).toBeUndefined();
    expect(forbiddenPath("src/pkg/mod.py", rules)).toBeUndefined();
  });

  it("never allows tests, CI configuration, ignored paths or paths outside the repository", () => {
    expect(forbiddenPath("tests/test_bank.py", rules)).toMatch(/test file/);
    expect(forbiddenPath("pkg/conftest.py", rules)).toMatch(/test file/);
    expect(forbiddenPath(".github/workflows/ci.yml", rules)).toMatch(/CI configuration/);
    expect(forbiddenPath("vendor/lib.py", rules)).toMatch(/ignored/);
    expect(forbiddenPath("../outside.py", rules)).toMatch(/outside the repository/);
    expect(forbiddenPath("/etc/passwd", rules)).toMatch(/outside the repository/);
  });

  it("refuses a file the suite collected tests from, whatever its name, in any spelling", () => {
    const collected = { ...rules, testFiles: ["checks/check_bounds.py"] };
    expect(forbiddenPath("checks/check_bounds.py", rules)).toBeUndefined();
    expect(forbiddenPath("checks/check_bounds.py", collected)).toMatch(/test file/);
    expect(forbiddenPath("./checks/../checks/check_bounds.py", collected)).toMatch(/test file/);
    expect(forbiddenPath("checks/helpers.py", collected)).toBeUndefined();
  });

  it("keeps patches inside the configured source paths", () => {
    const only = { files: pythonFiles, sourcePaths: ["src/"], ignorePaths: [] };
    expect(forbiddenPath("src/a.py", only)).toBeUndefined();
    expect(forbiddenPath("./src/pkg/../a.py", only)).toBeUndefined();
    expect(forbiddenPath("srcx/a.py", only)).toMatch(/outside the configured source paths \(src\/\)/);
    expect(forbiddenPath("src/../lib/a.py", only)).toMatch(/outside the configured source paths/);
    expect(
      forbiddenPath("pkg/a.py", { files: pythonFiles, sourcePaths: ["./pkg/"], ignorePaths: [] }),
    ).toBeUndefined();
    expect(
      forbiddenPath("pkg/a.py", { files: pythonFiles, sourcePaths: ["."], ignorePaths: [] }),
    ).toBeUndefined();
  });

  it("checks the normalised path: another spelling of a refused file is refused", () => {
    for (const p of [
      "./.github/workflows/ci.yml",
      "a/../.github/x",
      "src//../.github/workflows/ci.yml",
      ".GitHub/workflows/ci.yml",
      "./.git/hooks/pre-commit",
    ])
      expect(forbiddenPath(p, rules), p).toMatch(/CI configuration/);
    expect(forbiddenPath("a/../../outside.py", rules)).toMatch(/outside the repository/);
    expect(forbiddenPath("pkg\\..\\..\\x.py", rules)).toMatch(/outside the repository/);
    expect(forbiddenPath("./pkg/./mod.py", rules)).toBeUndefined();
  });

  it("refuses build, packaging and CI files anywhere, and any file that is not Python", () => {
    for (const p of [
      "setup.py",
      "pkg/setup.py",
      "noxfile.py",
      "sitecustomize.py",
      "setup.cfg",
      "pyproject.toml",
      "tox.ini",
      ".gitlab-ci.yml",
      "requirements.txt",
      "requirements-dev.txt",
      "requirements/base.txt",
      "Dockerfile",
      "docker/Dockerfile.test",
      "app.dockerfile",
      "Makefile",
      "rules.mk",
    ])
      expect(forbiddenPath(p, rules), p).toMatch(/build, packaging or CI file|CI configuration/);
    for (const p of ["README.md", "pkg/data.json", "run.sh", "pkg/mod.pyc"])
      expect(forbiddenPath(p, rules), p).toMatch(/not a Python source file/);
    // The other side: ordinary modules whose names merely resemble those files.
    for (const p of ["setup_helpers.py", "pkg/make.py", "docker_utils.py", "requirements.py"])
      expect(forbiddenPath(p, rules), p).toBeUndefined();
  });
});

describe("normalizeRepoPath", () => {
  it("gives one canonical form inside the repository, nothing outside", () => {
    expect(normalizeRepoPath("./a/./b/../c.py")).toBe("a/c.py");
    expect(normalizeRepoPath("a//b.py")).toBe("a/b.py");
    expect(normalizeRepoPath("a/..")).toBeUndefined();
    expect(normalizeRepoPath("../a.py")).toBeUndefined();
    expect(normalizeRepoPath("/etc/passwd")).toBeUndefined();
    expect(normalizeRepoPath("a\0b.py")).toBeUndefined();
    expect(normalizeRepoPath("")).toBeUndefined();
  });
});

describe("Budget", () => {
  it("stops at the experiment, token and wall-clock limits and says which", () => {
    let now = 0;
    const budget = new Budget({ maxExperiments: 2, maxTokens: 100, wallClockMs: 1000 }, () => now);
    expect(budget.exhausted()).toBeUndefined();
    budget.spendExperiment();
    budget.spendExperiment();
    expect(budget.exhausted()).toBe("experiment budget of 2 used up");
    const tokens = new Budget({ maxExperiments: 9, maxTokens: 100, wallClockMs: 1000 }, () => now);
    tokens.spendTokens(150);
    expect(tokens.exhausted()).toBe("LLM token budget of 100 used up");
    const clock = new Budget({ maxExperiments: 9, maxTokens: 100, wallClockMs: 1000 }, () => now);
    now = 1500;
    expect(clock.exhausted()).toBe("wall-clock budget of 1 s used up");
    expect(clock.remainingMs()).toBe(0);
  });
});
