import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { commandArgv, DEFAULT_REPO_CONFIG, loadRepoConfig, parseRepoConfig } from "../../src/repo-config.js";
import { python } from "../../src/lang/python/index.js";

/** A configured test_command's selection, as the pipeline reads it: argv, then Python's rules. */
const testSelection = (c: string | string[]) => python.testSelection(commandArgv(c)!);

describe("parseRepoConfig", () => {
  it("reads every setting", () => {
    const config = parseRepoConfig(
      [
        "language: python",
        "test_command: pytest tests/unit",
        "setup_command: pip install -e .",
        "source_paths: [src]",
        "ignore_paths: [src/generated]",
        "max_iterations: 5",
        "patches: 4",
        "max_experiments: 30",
        "mode: comment",
        "reruns: 2",
        "delivery: pull-request",
        "max_open_pull_requests: 5",
        "max_ci_iterations: 2",
      ].join("\n"),
    );
    expect(config).toEqual({
      language: "python",
      test_command: "pytest tests/unit",
      setup_command: "pip install -e .",
      source_paths: ["src"],
      ignore_paths: ["src/generated"],
      max_iterations: 5,
      patches: 4,
      max_experiments: 30,
      mode: "comment",
      reruns: 2,
      delivery: "pull-request",
      max_open_pull_requests: 5,
      max_ci_iterations: 2,
      forks: "comment",
    });
    expect(commandArgv(config.setup_command)).toEqual(["pip", "install", "-e", "."]);
  });

  it("defaults an empty file", () => {
    expect(parseRepoConfig("")).toEqual(DEFAULT_REPO_CONFIG);
    expect(DEFAULT_REPO_CONFIG).toMatchObject({
      max_iterations: 3,
      patches: 10,
      reruns: 3,
      mode: "pull-request",
      delivery: "suggestions",
      max_open_pull_requests: 3,
    });
  });

  it("turns every problem of an invalid file into one clear error", () => {
    const attempt = () =>
      parseRepoConfig("language: ruby\nmax_iterations: 0\nsource_paths: [../x]\ncolour: blue\n");
    expect(attempt).toThrow(UserError);
    const message = (() => {
      try {
        attempt();
      } catch (err) {
        return (err as UserError).oneLine();
      }
    })();
    expect(message).toMatch(/^\.github\/hypofix\.yml is invalid: /);
    expect(message).toContain("language");
    expect(message).toContain("max_iterations");
    expect(message).toContain("source_paths.0: must be a path inside the repository");
    expect(message).toContain("colour");
  });

  it("rejects YAML that does not parse", () => {
    expect(() => parseRepoConfig("mode: [unclosed")).toThrow(/is not valid YAML/);
  });
});

describe("loadRepoConfig", () => {
  it("reads .github/hypofix.yml from a checkout, or defaults without one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hypofix-cfg-"));
    expect(await loadRepoConfig(dir)).toEqual(DEFAULT_REPO_CONFIG);
    await mkdir(join(dir, ".github"));
    await writeFile(join(dir, ".github/hypofix.yml"), "patches: 3\n");
    expect((await loadRepoConfig(dir)).patches).toBe(3);
  });
});

describe("test_command", () => {
  it("selects what CI selects, with shell words rather than spaces", () => {
    expect(testSelection("python -m pytest tests")).toEqual(["tests"]);
    expect(testSelection("pytest -m unit")).toEqual(["-m", "unit"]);
    expect(testSelection('pytest -k "not slow"')).toEqual(["-k", "not slow"]);
    expect(testSelection("python3.11 -m pytest -q -x --tb=short tests/unit::test_a")).toEqual([
      "tests/unit::test_a",
    ]);
    expect(testSelection(["pytest", "-k", "a or b", "--deselect=tests/test_x.py::test_y"])).toEqual([
      "-k",
      "a or b",
      "--deselect",
      "tests/test_x.py::test_y",
    ]);
    expect(testSelection("pytest")).toEqual([]);
  });

  it("refuses what is not a supported pytest form, with one clear message", () => {
    const message = (c: string | string[]) => {
      try {
        testSelection(c);
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        return (err as UserError).oneLine();
      }
      return "accepted";
    };
    expect(message("tox -e py311")).toMatch(/^must run pytest, not "tox -e py311" — use pytest/);
    expect(message("pytest --cov=src")).toMatch(/the pytest option --cov=src is not supported/);
    expect(message("pytest -k")).toMatch(/-k needs a value/);
    expect(message("pytest ../elsewhere")).toMatch(/must be a path or node id inside the repository/);
    expect(message("pytest && rm -rf /")).toMatch(/without shell operators \(found &&\)/);
    expect(message("pytest tests/*.py")).toMatch(/must not contain a glob/);
  });

  it("makes an invalid test_command an invalid file, and setup_command shell words", () => {
    expect(() => parseRepoConfig("test_command: make test\n")).toThrow(
      /test_command: must run pytest, not "make test"/,
    );
    const config = parseRepoConfig("setup_command: pip install 'pkg[extra] >= 1'\n");
    expect(commandArgv(config.setup_command)).toEqual(["pip", "install", "pkg[extra] >= 1"]);
    expect(() => parseRepoConfig("setup_command: pip install . | tee log\n")).toThrow(/shell operators/);
  });
});
