import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, initOrigin } from "./git.js";

/**
 * The bundled bank example (below `root`) as a git origin in `dir` (see initOrigin):
 * one commit, whose test fails; returns its sha.
 */
export function bankRepo(dir: string, message = "bank account with a failing test", root = "."): string {
  cpSync(join(root, "examples/bank-account"), dir, { recursive: true });
  initOrigin(dir);
  git(dir, "add", ".");
  git(dir, "commit", "--quiet", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/**
 * The bundled bank example as a git origin in `dir` (branch main): a commit whose
 * test fails (`sha`), then the human fix on top (`fixedSha`), fetchable by sha.
 */
export function bankOrigin(dir: string): { sha: string; fixedSha: string } {
  const sha = bankRepo(dir);
  const bank = join(dir, "bank.py");
  writeFileSync(bank, readFileSync(bank, "utf8").replace("amount < available", "amount <= available"));
  git(dir, "commit", "--quiet", "-am", "Allow withdrawing the entire balance");
  return { sha, fixedSha: git(dir, "rev-parse", "HEAD") };
}
