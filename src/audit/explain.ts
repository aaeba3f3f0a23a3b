import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { extract } from "tar-fs";
import { UserError } from "../errors.js";
import type { ChatModel } from "../llm/types.js";
import type { EngineKind } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";
import type { DifferentialOptions } from "./differential.js";
import { auditPatch, type AuditOutcome, type AuditPatchInput } from "./index.js";
import type { FileChange } from "./types.js";

const run = promisify(execFile);
const GIT_BUFFER = 64 * 1024 * 1024;

async function git(repoDir: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-C", repoDir, ...args], { maxBuffer: GIT_BUFFER, encoding: "utf8" });
  return stdout;
}

async function resolveRef(repoDir: string, ref: string): Promise<string> {
  try {
    return (await git(repoDir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim();
  } catch {
    throw new UserError(
      `${ref} is not a commit in ${repoDir}`,
      "pass a branch, tag or sha of that repository",
    );
  }
}

/** The tree of one commit, as plain files (no .git), into `dir`. */
async function archive(repoDir: string, sha: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const child = spawn("git", ["-C", repoDir, "archive", "--format=tar", sha], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  await pipeline(child.stdout, extract(dir));
  const code = await exited;
  if (code !== 0) throw new Error(`git archive ${sha} failed: ${stderr.trim()}`);
}

/** Whole-file changes between two commits; binary files are left out and named. */
export async function changesBetween(
  repoDir: string,
  base: string,
  head: string,
): Promise<{ changes: FileChange[]; skipped: string[] }> {
  const status = (await git(repoDir, ["diff", "--no-renames", "--name-status", "-z", base, head])).split(
    "\0",
  );
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  const show = (ref: string, file: string) => git(repoDir, ["show", `${ref}:${file}`]);
  for (let i = 0; i + 1 < status.length; i += 2) {
    const kind = status[i] ?? "";
    const file = status[i + 1] ?? "";
    const before = kind === "A" ? null : await show(base, file);
    const after = kind === "D" ? null : await show(head, file);
    if ([before, after].some((t) => t?.includes("\0"))) skipped.push(file);
    else changes.push({ path: file, before, after });
  }
  return { changes, skipped };
}

export interface ExplainOptions {
  base: string;
  /** Default: HEAD. */
  head?: string;
  engine: EngineKind;
  /** A fresh sandbox over a folder (the change's base, materialised) with its language's runtime. */
  workspace: (repoDir: string) => Promise<{ sandbox: Sandbox; runtime: AuditPatchInput["runtime"] }>;
  /** The pull request's title and description, checked with the commit messages. */
  description?: string;
  model?: ChatModel;
  differential?: DifferentialOptions;
}

/**
 * The `/explain` audit of a local repository: base and head are materialised
 * from git into a temporary folder (the repository itself is never touched),
 * and the commit messages between them (plus any description) are the claims.
 */
export async function explainChange(repoDir: string, options: ExplainOptions): Promise<AuditOutcome> {
  const top = await git(repoDir, ["rev-parse", "--show-toplevel"]).catch(() => {
    throw new UserError(`${repoDir} is not a git repository`, "pass the folder of a git checkout");
  });
  const root = top.trim();
  const base = await resolveRef(root, options.base);
  const head = await resolveRef(root, options.head ?? "HEAD");
  const tmp = await mkdtemp(path.join(tmpdir(), "hypofix-explain-"));
  try {
    const baseDir = path.join(tmp, "base");
    await archive(root, base, baseDir);
    const { changes, skipped } = await changesBetween(root, base, head);
    const messages = await git(root, ["log", "--reverse", "--format=%B", `${base}..${head}`]);
    const explanation = [options.description ?? "", messages].filter((t) => t.trim() !== "").join("\n\n");
    const { sandbox, runtime } = await options.workspace(baseDir);
    try {
      return await auditPatch({
        sandbox,
        runtime,
        patch: changes,
        claims: explanation,
        engine: options.engine,
        ...(options.model ? { model: options.model } : {}),
        ...(options.differential ? { options: options.differential } : {}),
        notes: skipped.length > 0 ? [`Binary files were not compared: ${skipped.join(", ")}.`] : [],
      });
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
