import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { markdownProblems } from "../helpers/markdown.js";
import { resultSchema } from "../../src/result.js";
import { example, fixture } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));
const run = promisify(execFile);

async function hypofix(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, HYPOFIX_PYTHON: process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3" };
  try {
    const { stdout, stderr } = await run("node", [BIN, ...args], { env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("hypofix fix (the CLI)", () => {
  it("fixes the bundled example in the Docker sandbox: exit 0, report.md, patch.diff, result.json, a line per phase", async () => {
    const out = await mkdtemp(join(tmpdir(), "hypofix-out-"));
    const { code, stdout, stderr } = await hypofix([
      "fix",
      example("bank-account"),
      "--sandbox",
      "docker",
      "--out",
      out,
      "--json",
    ]);
    expect(code).toBe(0);
    const result = resultSchema.parse(JSON.parse(stdout));
    expect(result.status).toBe("fixed");
    expect(JSON.parse(await readFile(join(out, "result.json"), "utf8"))).toEqual(result);
    const report = await readFile(join(out, "report.md"), "utf8");
    expect(report).toContain("in the docker sandbox");
    expect(markdownProblems(report)).toEqual([]);
    for (const phase of ["sandbox: docker sandbox ready", "reproduce:", "localize:", "debug:", "validate:"]) {
      expect(stderr).toContain(phase);
    }
    // The patch applies to a fresh copy of the example.
    const copy = await mkdtemp(join(tmpdir(), "hypofix-apply-"));
    await cp(example("bank-account"), copy, { recursive: true });
    await run("git", ["apply", "--check", join(out, "patch.diff")], { cwd: copy });
    expect(await readFile(join(out, "patch.diff"), "utf8")).toContain("+        return amount <= available");
  });

  it("exits 3 when there is nothing to fix, apart from 1 for a failed repair", async () => {
    const out = await mkdtemp(join(tmpdir(), "hypofix-out-"));
    const { code, stderr } = await hypofix(["fix", fixture("fix-green"), "--sandbox", "local", "--out", out]);
    expect(code).toBe(3);
    expect(stderr).toContain("not-reproduced");
    expect(await readFile(join(out, "patch.diff"), "utf8")).toBe("");
    // A repair that runs and fails is 1: a loop bound whose first candidate edit is not the fix, with a budget of one experiment.
    const copy = await mkdtemp(join(tmpdir(), "hypofix-nofix-"));
    await cp(fixture("fix-loop"), copy, { recursive: true });
    await mkdir(join(copy, ".github"));
    await writeFile(join(copy, ".github/hypofix.yml"), "max_experiments: 1\n");
    const noFix = await hypofix(["fix", copy, "--sandbox", "local", "--out", join(copy, "out")]);
    expect(noFix.code).toBe(1);
    expect(noFix.stderr).toContain("no-fix");
  });

  it("exits 4 for a partial fix (1 of 2 failing tests), with the patch written but status partial", async () => {
    const out = await mkdtemp(join(tmpdir(), "hypofix-out-"));
    const { code, stderr } = await hypofix([
      "fix",
      fixture("fix-preexisting"),
      "--sandbox",
      "local",
      "--out",
      out,
    ]);
    expect(code, stderr).toBe(4);
    expect(stderr).toContain("hypofix: partial: a patch fixes 1 of 2 failing tests");
    expect(resultSchema.parse(JSON.parse(await readFile(join(out, "result.json"), "utf8"))).status).toBe(
      "partial",
    );
    expect(await readFile(join(out, "patch.diff"), "utf8")).toContain("+++ b/prices.py");
  });

  it("exits 2 with one line for a repository that does not exist or an invalid .github/hypofix.yml", async () => {
    const missing = await hypofix([
      "fix",
      "/nonexistent/repo",
      "--sandbox",
      "local",
      "--out",
      join(tmpdir(), "x"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    const repo = await mkdtemp(join(tmpdir(), "hypofix-badcfg-"));
    await mkdir(join(repo, ".github"));
    await writeFile(join(repo, ".github/hypofix.yml"), "max_iterations: lots\n");
    const bad = await hypofix(["fix", repo, "--sandbox", "local", "--out", join(repo, "out")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hypofix: \.github\/hypofix\.yml is invalid: max_iterations: .*\n$/);
  });
});
