import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PYTHON = process.env.HYPOFIX_PYTHON ?? "python3";

/** Writes commit `sha`'s tree into `dir` (git archive: the origin's index and work tree stay as they are). */
export function exportTree(origin: string, sha: string, dir: string): void {
  const tar = join(dir, ".tree.tar");
  execFileSync("git", ["archive", "--format=tar", "-o", tar, sha], { cwd: origin });
  execFileSync("tar", ["-xf", tar, "-C", dir]);
  rmSync(tar);
}

/** Runs the bank example's tests over `files` (path → content) of commit `sha`; true when they pass. */
export function testsPass(origin: string, sha: string, files: Record<string, string> = {}): boolean {
  const dir = mkdtempSync(join(tmpdir(), "hypofix-applied-"));
  try {
    exportTree(origin, sha, dir);
    for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
    execFileSync(PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider"], { cwd: dir, stdio: "pipe" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A commit on `parent` whose tree is `tree`'s with `files` (path → content) written over it. */
export function commitWith(
  origin: string,
  parent: string,
  tree: string,
  files: Record<string, string>,
  message: string,
): string {
  const index = join(mkdtempSync(join(tmpdir(), "hypofix-index-")), "index");
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { cwd: origin, env, encoding: "utf8", ...(input ? { input } : {}) }).trim();
  git(["read-tree", tree]);
  for (const [path, content] of Object.entries(files)) {
    const blob = git(["hash-object", "-w", "--stdin"], content);
    git(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
  }
  return git(["commit-tree", git(["write-tree"]), "-p", parent, "-m", message]);
}
