import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeGitHub, type Recorded } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { appPrivateKey, git } from "../helpers/git.js";

export const REPO = { owner: "octo", name: "bank" } as const;
export const INSTALLATION = 7;

/**
 * The bundled bank-account example as a GitHub repository on loopback: a real git
 * origin, GitHub's Git Data / pulls / comments API backed by it (GitBackedGitHub),
 * and the App routes a worker calls. For the ops tests and benchmarks.
 */
export class BankApp {
  readonly origin = mkdtempSync(join(tmpdir(), "hypofix-bank-"));
  readonly privateKey = appPrivateKey();
  readonly sha: string;
  readonly gitHub: GitBackedGitHub;
  readonly github: FakeGitHub;
  host = "";

  constructor(root = process.cwd()) {
    cpSync(join(root, "examples/bank-account"), this.origin, { recursive: true });
    git(this.origin, "init", "--quiet", "--initial-branch=main");
    git(this.origin, "config", "uploadpack.allowAnySHA1InWant", "true");
    git(this.origin, "add", ".");
    git(this.origin, "commit", "--quiet", "-m", "bank account with a failing test");
    this.sha = git(this.origin, "rev-parse", "HEAD");
    this.gitHub = new GitBackedGitHub(this.origin, REPO);
    this.github = new FakeGitHub((r: Recorded) => {
      const routes: [string, RegExp, unknown][] = [
        [
          "POST",
          new RegExp(`^/app/installations/${INSTALLATION}/access_tokens$`),
          { token: "ghs_ops", permissions: {} },
        ],
        ["GET", /^\/repos\/octo\/bank$/, { clone_url: `file://${this.origin}`, default_branch: "main" }],
        ["POST", /\/check-runs$/, { id: 1 }],
      ];
      const hit = routes.find(([m, p]) => m === r.method && p.test(r.path));
      return hit ? { status: r.method === "POST" ? 201 : 200, body: hit[2] } : this.gitHub.route(r);
    });
  }

  async start(): Promise<string> {
    this.host = await this.github.start();
    return this.host;
  }

  /** A failed CI run of the head commit on main, as the webhook handler queues it. */
  job(): Record<string, unknown> {
    return {
      kind: "ci-failure",
      installationId: INSTALLATION,
      repo: REPO,
      headSha: this.sha,
      headBranch: "main",
    };
  }

  /** Environment for a `hypofix` process talking to this fake GitHub (offline engine: no LLM variables). */
  env(extra: Record<string, string>): NodeJS.ProcessEnv {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("HYPOFIX_LLM_") && k !== "PRIVATE_KEY_PATH"),
    );
    return {
      ...base,
      APP_ID: "1",
      PRIVATE_KEY: this.privateKey,
      GHE_HOST: this.host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "info",
      HYPOFIX_REDELIVERY_INTERVAL_MS: "0",
      ...extra,
    };
  }

  async close(): Promise<void> {
    await this.github.stop();
    this.gitHub.dispose();
    rmSync(this.origin, { recursive: true, force: true });
  }
}

const BIN = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));

export interface Running {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
}

/** `hypofix <args>` as a child process; its output is kept for error messages. */
export function hypofix(args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Running {
  let output = "";
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

/** Polls `url` until it answers (any status); throws with the process output when it exits or times out. */
export async function waitForHttp(url: string, served: Running, timeoutMs = 90_000): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url, { redirect: "manual" });
    } catch {
      if (served.child.exitCode !== null || Date.now() > until)
        throw new Error(`no answer from ${url}\n--- output ---\n${served.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
