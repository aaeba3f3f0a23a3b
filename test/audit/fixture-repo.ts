import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const IDENTITY = ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.com"];

/**
 * Builds a git repository from test/fixtures/<name>: `base/` is the first
 * commit (tagged `base`), and each `changes/<branch>.patch` (git format-patch,
 * so it carries its commit message) is one branch on top of it.
 */
export function buildFixtureRepo(name: string): { dir: string; branches: string[]; cleanup: () => void } {
  const root = path.join(FIXTURES, name);
  const dir = mkdtempSync(path.join(tmpdir(), `hypofix-${name}-`));
  const git = (...args: string[]) => execFileSync("git", [...IDENTITY, ...args], { cwd: dir, stdio: "pipe" });
  cpSync(path.join(root, "base"), dir, { recursive: true });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "Base");
  git("tag", "base");
  const branches: string[] = [];
  for (const file of readdirSync(path.join(root, "changes"))
    .filter((f) => f.endsWith(".patch"))
    .sort()) {
    const branch = file.replace(/\.patch$/, "");
    git("checkout", "-q", "-b", branch, "base");
    git("am", "-q", "--committer-date-is-author-date", path.join(root, "changes", file));
    branches.push(branch);
  }
  git("checkout", "-q", "main");
  return { dir, branches, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
