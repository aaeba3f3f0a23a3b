import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git.js";

/**
 * The bundled bank example as a git origin in `dir` (branch main): a commit whose
 * test fails (`sha`), then the human fix on top (`fixedSha`), fetchable by sha.
 */
export function bankOrigin(dir: string): { sha: string; fixedSha: string } {
  cpSync("examples/bank-account", dir, { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "config", "uploadpack.allowAnySHA1InWant", "true");
  git(dir, "add", ".");
  git(dir, "commit", "--quiet", "-m", "bank account with a failing test");
  const sha = git(dir, "rev-parse", "HEAD");
  const bank = join(dir, "bank.py");
  writeFileSync(bank, readFileSync(bank, "utf8").replace("amount < available", "amount <= available"));
  git(dir, "commit", "--quiet", "-am", "Allow withdrawing the entire balance");
  return { sha, fixedSha: git(dir, "rev-parse", "HEAD") };
}
