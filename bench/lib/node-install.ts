/** Dependencies of a JS corpus project for the corpus tools on the host: installed once from the
 * project's lockfile (`npm ci`, or `pnpm install --frozen-lockfile` through corepack) into a
 * cache keyed by the manifests and the lockfile, then hard-linked into every scratch copy. This
 * is a development check on the host and uses the host's npm configuration; benchmarks install
 * in the sandbox from a local mirror instead. */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { spawnGroup } from "./node-tests.js";

export type PackageManager = "npm" | "pnpm";

export const DEFAULT_INSTALL_CACHE =
  process.env.HYPOFIX_CORPUS_JS_CACHE ?? join(homedir(), ".cache", "hypofix", "corpus-js");

/** Files that decide what an install puts into node_modules. */
const INSTALL_INPUTS = new Set([
  "package.json",
  "package-lock.json",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  ".npmrc",
]);
const MARKER = ".hypofix-installed";

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Relative paths of the install inputs below `dir`, outside node_modules, sorted. */
async function installInputs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && INSTALL_INPUTS.has(e.name))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((path) => !path.split(sep).includes("node_modules"))
    .sort();
}

/** Folders named node_modules below `dir` that are not inside another node_modules. */
async function topNodeModules(dir: string, at = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(dir, at), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const rel = at === "" ? entry.name : join(at, entry.name);
    if (entry.name === "node_modules") found.push(rel);
    else if (!entry.name.startsWith(".")) found.push(...(await topNodeModules(dir, rel)));
  }
  return found;
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<void> {
  return spawnGroup(command, args, {
    cwd,
    env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0", CI: "true" },
    timeoutMs,
  }).then((result) => {
    if (result.timedOut) throw new Error(`${command} ${args.join(" ")} timed out in ${cwd}`);
    if (result.exitCode !== 0)
      throw new Error(
        `${command} ${args.join(" ")} failed (${result.exitCode}) in ${cwd}: ${result.output.trim().split("\n").slice(-5).join(" | ")}`,
      );
  });
}

function installCommand(packageManager: PackageManager): [string, string[]] {
  return packageManager === "npm"
    ? ["npm", ["ci", "--no-audit", "--no-fund"]]
    : ["corepack", ["pnpm", "install", "--frozen-lockfile"]];
}

/**
 * The cache folder holding `projectDir` installed from its lockfile; installs it first when the
 * cache has no complete install for these manifests. `name` prefixes the folder for people.
 */
export async function installedCopy(
  projectDir: string,
  packageManager: PackageManager,
  options: { name: string; cacheRoot?: string; timeoutMs?: number },
): Promise<string> {
  const digest = createHash("sha256");
  for (const path of await installInputs(projectDir)) {
    digest.update(`${path}\0`);
    digest.update(await readFile(join(projectDir, path)));
    digest.update("\0");
  }
  const cacheDir = join(
    options.cacheRoot ?? DEFAULT_INSTALL_CACHE,
    `${options.name}-${digest.digest("hex").slice(0, 16)}`,
  );
  if (await exists(join(cacheDir, MARKER))) return cacheDir;
  await rm(cacheDir, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  await cp(projectDir, cacheDir, {
    recursive: true,
    filter: (source) => !source.split(sep).includes("node_modules"),
  });
  const [command, args] = installCommand(packageManager);
  await run(command, args, cacheDir, options.timeoutMs ?? 600_000);
  await writeFile(join(cacheDir, MARKER), `${packageManager} ${new Date().toISOString()}\n`);
  return cacheDir;
}

/** Gives `destDir` (a copy of the same project) the node_modules folders of `cacheDir`, as hard
 * links (a plain copy when the two are on different file systems). Nothing a test run writes can
 * change the cache: runs only add files, and new files in linked folders are the copy's own. */
export async function linkNodeModules(cacheDir: string, destDir: string): Promise<void> {
  for (const rel of await topNodeModules(cacheDir)) {
    const target = join(destDir, rel);
    await rm(target, { recursive: true, force: true });
    try {
      await execCp(["-al", join(cacheDir, rel), target]);
    } catch {
      await execCp(["-a", join(cacheDir, rel), target]);
    }
  }
}

function execCp(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("cp", args, { timeout: 300_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`cp ${args.join(" ")}: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}
