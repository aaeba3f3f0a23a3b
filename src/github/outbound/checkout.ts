import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Checkouts live in the system temp dir under this prefix (stale-checkouts.ts removes dead workers' ones). */
export const CHECKOUT_PREFIX = "hypofix-checkout-";

export interface Checkout {
  dir: string;
  dispose(): Promise<void>;
}

/**
 * Fetches exactly one commit of a repository into a temp dir. The token goes
 * to git through GIT_CONFIG_* environment variables: never in argv, the
 * remote URL, .git/config or a log line.
 */
export async function checkoutCommit(options: {
  cloneUrl: string;
  sha: string;
  /** Further commits to fetch beside `sha` (the base of a pull request, for /explain). */
  alsoFetch?: string[];
  token?: string;
  timeoutMs?: number;
}): Promise<Checkout> {
  const dir = await mkdtemp(join(tmpdir(), CHECKOUT_PREFIX));
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0" };
  if (options.token) {
    const basic = Buffer.from(`x-access-token:${options.token}`).toString("base64");
    Object.assign(env, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    });
  }
  const git = (...args: string[]) =>
    run("git", args, { cwd: dir, env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 16 * 1024 * 1024 });
  try {
    await git("init", "--quiet");
    await git("remote", "add", "origin", options.cloneUrl);
    await git("fetch", "--quiet", "--depth", "1", "origin", options.sha, ...(options.alsoFetch ?? []));
    await git("checkout", "--quiet", "--detach", options.sha);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: string }).stderr?.trim() ?? String(err);
    throw new Error(`could not fetch ${options.sha.slice(0, 12)}: ${stderr.split("\n").at(-1)}`, {
      cause: err,
    });
  }
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
