import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Checkouts live in the system temp dir under this prefix (stale-checkouts.ts removes dead workers' ones). */
export const CHECKOUT_PREFIX = "hypofix-checkout-";

/** A file as the commit records it: what the host knows of repository content, never the working tree. */
export interface TreeEntry {
  /** `100644`, `100755` (regular), `120000` (symlink), `160000` (submodule), `040000` (tree). */
  mode: string;
  type: "blob" | "tree" | "commit";
  object: string;
  /** Bytes, for a blob. */
  size?: number;
}

export interface Checkout {
  dir: string;
  /** The commit checked out. */
  sha: string;
  /** The entry at `path` in a fetched commit, or undefined when the commit has none there. */
  entry(path: string, commit?: string): Promise<TreeEntry | undefined>;
  /** A blob's bytes as text, read from the object store (a repository symlink is never followed). */
  blob(object: string, maxBytes?: number): Promise<string>;
  /** The commit's root tree. */
  tree(commit?: string): Promise<string>;
  dispose(): Promise<void>;
}

/** Regular files a patch may replace, by git mode. Links (120000) and submodules (160000) are not. */
export const REGULAR_MODES = ["100644", "100755"] as const;
export type RegularMode = (typeof REGULAR_MODES)[number];

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** An object id as an argument: never something git could read as an option or a revision expression. */
function objectId(id: string): string {
  if (!OBJECT_ID.test(id)) throw new Error(`not an object id: ${JSON.stringify(id.slice(0, 60))}`);
  return id;
}

/** No repository file the host reads needs more. */
const MAX_BLOB = 4 * 1024 * 1024;

/**
 * git's environment: nothing of the worker's (no GIT_* variables, credential
 * helpers, askpass programs or HOME configuration), so only what a command is
 * given reaches it. Pathspecs are literal: a repository path is never a pattern.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    LANG: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_LITERAL_PATHSPECS: "1",
    ...extra,
  };
}

/** The token as an HTTP header for requests to the clone URL only, through the environment (never argv or .git/config). */
function authEnv(cloneUrl: string, token: string | undefined): Record<string, string> {
  if (!token) return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${cloneUrl}.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/**
 * Fetches exactly one commit of a repository into a temp dir. The token is
 * given to the fetch alone; every other git command runs without it.
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
  const timeout = options.timeoutMs ?? 300_000;
  const git = async (args: string[], env = gitEnv(), maxBuffer = 16 * 1024 * 1024) =>
    (await run("git", args, { cwd: dir, env, timeout, maxBuffer, encoding: "utf8" })).stdout;
  try {
    await git(["init", "--quiet"]);
    await git(["remote", "add", "origin", options.cloneUrl]);
    await git(
      ["fetch", "--quiet", "--depth", "1", "origin", options.sha, ...(options.alsoFetch ?? [])],
      gitEnv(authEnv(options.cloneUrl, options.token)),
    );
    await git(["checkout", "--quiet", "--detach", options.sha]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: string }).stderr?.trim() ?? String(err);
    throw new Error(`could not fetch ${options.sha.slice(0, 12)}: ${stderr.split("\n").at(-1)}`, {
      cause: err,
    });
  }
  return {
    dir,
    sha: options.sha,
    async entry(path, commit = options.sha) {
      const out = await git(["ls-tree", "-z", "-l", objectId(commit), "--", path]);
      const line = out.split("\0").find((l) => l.endsWith(`\t${path}`));
      if (!line) return undefined;
      const [meta = ""] = line.split("\t");
      const [mode = "", type = "", object = "", size = "-"] = meta.split(/ +/);
      return {
        mode,
        type: type as TreeEntry["type"],
        object,
        ...(size !== "-" ? { size: Number(size) } : {}),
      };
    },
    async blob(object, maxBytes = MAX_BLOB) {
      const size = Number((await git(["cat-file", "-s", objectId(object)])).trim());
      if (size > maxBytes)
        throw new Error(`${object.slice(0, 12)} is ${size} bytes, over the ${maxBytes} read`);
      return git(["cat-file", "blob", object], gitEnv(), maxBytes + 1);
    },
    async tree(commit = options.sha) {
      return (await git(["rev-parse", "--verify", `${objectId(commit)}^{tree}`])).trim();
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
