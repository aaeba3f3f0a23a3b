import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";

/** A new temporary directory holding `files` (relative path → text, or bytes in an encoding other than UTF-8); the caller removes it. */
export async function writeTree(prefix: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

/** `files` in a new temporary directory, and a local sandbox over it (host Python, HYPOFIX_PYTHON). */
export async function localTree(
  prefix: string,
  files: Record<string, string | Buffer>,
): Promise<{ repo: string; sandbox: Sandbox }> {
  process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
  const repo = await writeTree(prefix, files);
  return { repo, sandbox: await createSandbox("local", testOptions(repo)) };
}
