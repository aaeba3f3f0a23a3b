import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { commandArgv, DEFAULT_REPO_CONFIG, loadRepoConfig, parseRepoConfig } from "../../src/repo-config.js";

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
