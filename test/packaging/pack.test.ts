import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultSchema } from "../../src/result.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** npm without the registry: the package is packed from this checkout, its dependencies are this checkout's. */
const NPM_ENV = {
  ...process.env,
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

let scratch: string;
let pkg: string;
let files: string[];

/** Runs the unpacked package's bin; never throws for a non-zero exit. */
async function hypofix(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, HYPOFIX_PYTHON: process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3" };
  try {
    const { stdout, stderr } = await run("node", [join(pkg, "bin/hypofix.js"), ...args], {
      cwd: scratch,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The package's dependencies as installed here, without asking a registry: every top-level
 * package of this checkout's node_modules linked, except the devDependencies (tsx among them),
 * so the runs below show that nothing the package runs needs them.
 */
async function linkDependencies(into: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const dev = new Set(Object.keys(manifest.devDependencies));
  expect(dev).toContain("tsx");
  const from = join(ROOT, "node_modules");
  for (const entry of await readdir(from)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@")
      ? (await readdir(join(from, entry))).map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of names.filter((n) => !dev.has(n))) {
      await mkdir(dirname(join(into, name)), { recursive: true });
      await symlink(join(from, name), join(into, name), "dir");
    }
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hypofix-pack-"));
  // `npm pack` runs prepack (the build) and writes the tarball npm would publish.
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: ROOT,
    env: NPM_ENV,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed!.files.map((f) => f.path);
  await run("tar", ["-xzf", join(scratch, packed!.filename), "-C", scratch]);
  pkg = join(scratch, "package");
  await linkDependencies(join(pkg, "node_modules"));
}, 300_000);
afterAll(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));

describe("the published package (npm pack, unpacked, its bin run)", () => {
  it("ships the compiled CLI with what it reads at run time, and no TypeScript source", async () => {
    expect(files).toContain("dist/cli.js");
    expect(files).toContain("dist/lang/python/helpers/hypofix_runtime.py");
    expect(files).toContain("dist/lang/python/helpers/test_files.json");
    // The candidate helper is a package of its own; TypeScript reads the family list beside it.
    expect(files).toContain("dist/lang/python/helpers/hypofix_candidates.py");
    expect(files).toContain("dist/lang/python/helpers/hypofix_cand/registry.py");
    expect(files).toContain("dist/lang/python/helpers/hypofix_cand/families/operators.py");
    expect(files).toContain("dist/lang/python/candidate-families.json");
    expect(files.filter((f) => f.includes("__pycache__"))).toEqual([]);
    expect(files).toContain("dist/lang/python/supervisor.py");
    expect(files).toContain("examples/bank-account/bank.py");
    expect(files.filter((f) => f.startsWith("prompts/")).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith("src/") || f.endsWith(".ts"))).toEqual([]);
    expect(existsSync(join(pkg, "src"))).toBe(false);
    expect((await readdir(join(pkg, "prompts"))).length).toBe((await readdir(join(ROOT, "prompts"))).length);
  });

  it("runs without its devDependencies: tsx does not resolve from the package, probot does", async () => {
    const resolves = async (name: string) => {
      try {
        await run("node", ["--input-type=module", "-e", `await import(${JSON.stringify(name)})`], {
          cwd: pkg,
        });
        return true;
      } catch {
        return false;
      }
    };
    expect(await resolves("tsx/esm/api")).toBe(false);
    expect(await resolves("probot")).toBe(true);
  });

  it("answers --help", async () => {
    const { code, stdout } = await hypofix(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: hypofix/);
    for (const command of ["fix", "explain", "localize", "observe", "sandbox", "serve", "worker"]) {
      expect(stdout).toContain(command);
    }
  });

  it("fixes its bundled example: exit 0, a validated patch, the report", async () => {
    const out = join(scratch, "out");
    const example = join(pkg, "examples/bank-account");
    const { code, stdout, stderr } = await hypofix([
      "fix",
      example,
      "--sandbox",
      "local",
      "--out",
      out,
      "--json",
    ]);
    expect(code, stderr).toBe(0);
    const result = resultSchema.parse(JSON.parse(stdout));
    expect(result.status).toBe("fixed");
    expect(await readFile(join(out, "patch.diff"), "utf8")).toContain("+        return amount <= available");
    expect(await readFile(join(out, "report.md"), "utf8")).toContain("in the local sandbox");
  }, 300_000);

  it("runs a command in a docker sandbox started with the packaged init and runner", async () => {
    const example = join(pkg, "examples/bank-account");
    const { code, stdout, stderr } = await hypofix([
      "sandbox",
      example,
      "--sandbox",
      "docker",
      "--",
      "sh",
      "-c",
      "ls /hypofix/helpers && echo pid1=$(cat /proc/1/comm)",
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("hypofix_runtime.py");
    expect(stdout).toContain("pid1=python3");
    // The runner (not one docker exec per command) ran it: the fallback would have warned.
    expect(stderr).not.toContain("using docker exec per command");
  }, 120_000);
});
