import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { ProbotOctokit } from "probot";
import { checkoutCommit, type Checkout } from "../../src/outbound/checkout.js";
import { patchedFiles } from "../../src/outbound/patched-files.js";
import type { FixPullRequest, GitHubClient } from "../../src/outbound/publish.js";
import { createLogger } from "../../src/log.js";
import type { HypofixJob } from "../../src/queue/job.js";
import type { JobProcessor } from "../../src/queue/worker.js";
import type { Result } from "../../src/result.js";
import { FakeGitHub, type Recorded, type Route } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { git, initOrigin } from "../helpers/git.js";
import { pythonFiles } from "../../src/lang/python/index.js";

export const BUGGY = "def add(a, b):\n    return a - b\n";
export const FIXED = "def add(a, b):\n    return a + b\n";

/** A unified diff of one file, as the pipeline writes it. */
export function diffOf(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after);
}

/** The pipeline's answer for a fixed bug; the processor's GitHub side is what is under test here. */
export function fixed(patch: string): { result: Result; report: string; patch: string } {
  return {
    result: {
      status: "fixed",
      reason: "the failing test passes and the suite still passes",
      failingTests: ["tests/test_ops.py::test_add"],
      localization: [],
      steps: [],
      patches: [],
      confidence: {
        done: true,
        reproduced: true,
        suitePasses: true,
        localizationAgreement: 1,
        audit: "not-run",
      },
      audit: { claims: [], behaviourChanges: [], unverified: [], notes: [] },
      timings: {},
      usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
      engine: "offline",
    },
    report: "## Fix\n\nreport",
    patch,
  };
}

/**
 * A repository on disk (the "origin" git serves and the fake GitHub writes into),
 * GitHub's API over it on loopback, and an Octokit talking to that API.
 */
/** Runs one ci-failure job of octo/calc through a processor, as the worker would (attempt numbers count up). */
export function jobRunner(processor: JobProcessor): (job: Partial<HypofixJob>) => ReturnType<JobProcessor> {
  let attempt = 0;
  const log = createLogger("silent");
  return (job) =>
    processor(
      {
        kind: "ci-failure",
        installationId: 7,
        repo: { owner: "octo", name: "calc" },
        trigger: "ci",
        ...job,
      } as HypofixJob,
      { jobId: "j", attempt: ++attempt, log, signal: new AbortController().signal },
    );
}

export class FixRepo {
  readonly origin = mkdtempSync(join(tmpdir(), "hypofix-fixrepo-"));
  readonly github: GitBackedGitHub;
  server!: FakeGitHub;
  octokit!: GitHubClient;
  private readonly checkouts: Checkout[] = [];
  /** Runs before the git-backed routes: a test can change the world between two requests. */
  intercept: Route = () => undefined;

  constructor(files: Record<string, string> = { "calc/ops.py": BUGGY }) {
    initOrigin(this.origin);
    this.write(files);
    this.github = new GitBackedGitHub(this.origin);
  }

  async start(): Promise<this> {
    this.server = new FakeGitHub((r) => this.intercept(r) ?? this.github.route(r));
    const host = await this.server.start();
    this.octokit = new ProbotOctokit({
      auth: { token: "ghs_test" },
      baseUrl: `http://${host}`,
      retry: { enabled: false },
      throttle: { enabled: false },
    }) as GitHubClient;
    return this;
  }

  /** Writes files on the checked-out branch and commits them as a human; returns the commit. */
  commit(files: Record<string, string>): string {
    this.write(files);
    return git(this.origin, "rev-parse", "HEAD");
  }

  private write(files: Record<string, string>): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.origin, path)), { recursive: true });
      writeFileSync(join(this.origin, path), content);
    }
    git(this.origin, "add", "-A");
    git(this.origin, "commit", "--quiet", "--allow-empty", "-m", "change");
  }

  executable(path: string): void {
    chmodSync(join(this.origin, path), 0o755);
    git(this.origin, "add", "-A");
    git(this.origin, "commit", "--quiet", "-m", "executable");
  }

  head(branch: string): string {
    return git(this.origin, "rev-parse", `refs/heads/${branch}`);
  }

  async checkout(sha: string): Promise<Checkout> {
    const c = await checkoutCommit({ cloneUrl: `file://${this.origin}`, sha });
    this.checkouts.push(c);
    return c;
  }

  /** The fix the processor would publish for `sha`: a patch applied to the commit's objects. */
  async fix(sha: string, patch: string, over: Partial<FixPullRequest> = {}): Promise<FixPullRequest> {
    const checkout = await this.checkout(sha);
    return {
      baseSha: sha,
      baseTree: await checkout.tree(),
      baseBranch: "main",
      files: await patchedFiles(checkout, patch, { files: pythonFiles, sourcePaths: [], ignorePaths: [] }),
      title: "Fix add() returning a - b",
      body: "report",
      ...over,
    };
  }

  /** Requests that change something on GitHub (the token endpoints aside). */
  writesSince(index: number): Recorded[] {
    return this.server.requests
      .slice(index)
      .filter(
        (r) => r.method !== "GET" && !r.path.startsWith("/installation/") && !r.path.startsWith("/app/"),
      );
  }

  async dispose(): Promise<void> {
    await Promise.all(this.checkouts.map((c) => c.dispose()));
    await this.server?.stop();
    this.github.dispose();
    rmSync(this.origin, { recursive: true, force: true });
  }
}
