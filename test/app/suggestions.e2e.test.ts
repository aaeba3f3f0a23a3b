// Issue 26: a validated fix goes where the maintainer is. Through the webhook, the queue and a
// worker (`hypofix serve`) against a loopback GitHub whose reviews are validated as GitHub
// validates them (a review comment on a line the pull request's diff does not show is a 422):
// a same-repository pull request whose diff shows the broken line gets one review of suggested
// changes, one whose diff does not gets the fix pull request into its branch; a fork's pull
// request, which the check run does not name, is found by its head and gets the suggestion or
// a comment with a patch `git apply` takes, and never a ref, commit or pull request in the base.
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { deliveryHeaders } from "../github/payloads.js";
import { failedCheckRun } from "../helpers/app-payloads.js";
import { exportTree, testsPass } from "../helpers/bank-tests.js";
import { git } from "../helpers/git.js";
import { serveOnLoopback, until, type Running } from "../helpers/hypofix-process.js";
import { BankApp } from "../ops/bank-app.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "suggestions-e2e-secret";

/** GitHub's "Commit suggestion": lines startLine..line of the file become the suggestion's lines. */
function applySuggestion(content: string, startLine: number, line: number, body: string): string {
  const fenced = /^(`{3,})suggestion\n([\s\S]*?)\n?\1$/.exec(body);
  if (!fenced) throw new Error(`not a suggestion block: ${body}`);
  const replacement = fenced[2] === "" ? [] : fenced[2]!.split("\n");
  const lines = content.split("\n");
  lines.splice(startLine - 1, line - startLine + 1, ...replacement);
  return lines.join("\n");
}

describe("a validated fix is delivered on the failing pull request", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const queueName = `hypofix-suggest-e2e-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  let served: Running;
  let port = 0;
  let origin = "";
  /** The bank example with the comparison fixed: the base branch `main`. */
  let fixedMain = "";

  const commitOn = (parent: string, tree: string, message: string) =>
    git(origin, "commit-tree", tree, "-p", parent, "-m", message);

  /** A commit on `parent` whose tree is the failing example's, plus `readme` as README.md when given. */
  const failingCommit = (parent: string, message: string, readme?: string) => {
    if (readme === undefined) return commitOn(parent, `${app.sha}^{tree}`, message);
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: origin,
      input: readme,
      encoding: "utf8",
    }).trim();
    const index = join(mkdtempSync(join(tmpdir(), "hypofix-index-")), "index");
    const env = { ...process.env, GIT_INDEX_FILE: index };
    execFileSync("git", ["read-tree", `${app.sha}^{tree}`], { cwd: origin, env });
    execFileSync("git", ["update-index", "--add", "--cacheinfo", `100644,${blob},README.md`], {
      cwd: origin,
      env,
    });
    const tree = execFileSync("git", ["write-tree"], { cwd: origin, env, encoding: "utf8" }).trim();
    return commitOn(parent, tree, message);
  };

  beforeAll(async () => {
    origin = app.repos[0]!.origin;
    app.intercept = (r: Recorded) => checks.route(r);
    // main: the example with the bug fixed; the bug comes back in the pull requests below.
    const bank = join(origin, "bank.py");
    writeFileSync(bank, readFileSync(bank, "utf8").replace("amount < available", "amount <= available"));
    git(origin, "commit", "--quiet", "-am", "withdraw up to the balance");
    fixedMain = git(origin, "rev-parse", "HEAD");
    git(origin, "branch", "legacy", app.sha);
    await app.start();
    ({ served, port } = await serveOnLoopback(
      [],
      app.env({ WEBHOOK_SECRET: SECRET, REDIS_URL, HYPOFIX_QUEUE_NAME: queueName }),
    ));
  }, 120_000);

  // Each case is its own scenario: the answer to the same failure in an earlier case must not
  // deduplicate it (test/app/dedupe.e2e.test.ts tests that).
  beforeEach(async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const answered = await redis.keys(`hypofix:${queueName}:answered:*`);
      if (answered.length > 0) await redis.del(...answered);
    } finally {
      redis.disconnect();
    }
  });

  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await queue.queue.obliterate({ force: true });
    await queue.close();
    await app.close();
  });

  const deliver = async (body: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      headers: deliveryHeaders("check_run", body, SECRET),
      body,
    });
    expect(res.status).toBe(200);
  };

  const outcome = async (sha: string): Promise<unknown> => {
    const jobsFor = async (): Promise<Job<HypofixJob>[]> =>
      (await queue.queue.getJobs(["waiting", "active", "delayed", "completed", "failed"])).filter(
        (j) => j.data.headSha === sha,
      );
    await until(
      "the job to finish",
      async () => {
        const [job] = await jobsFor();
        return job !== undefined && ((await job.isCompleted()) || (await job.isFailed()));
      },
      240_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- hypofix serve ---\n${served.output()}`);
    });
    const [job] = await jobsFor();
    expect(job!.failedReason, served.output()).toBeUndefined();
    return job!.returnvalue;
  };

  /** Writes into the base repository's git data or pull requests (a review or comment is neither). */
  const refWrites = (since: number) =>
    app.github.requests
      .slice(since)
      .filter((r) => r.method !== "GET" && /^\/repos\/octo\/bank\/(git\/|pulls$|pulls\/\d+$)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);

  const hypofixBranches = () => git(origin, "for-each-ref", "--format=%(refname)", "refs/heads/hypofix");

  /**
   * Eve's pull request `number` (her `head` into `base`), its head fetchable here as
   * refs/pull/N/head as on GitHub, and its failed check run, which names no pull request.
   */
  const deliverForkFailure = async (
    number: number,
    head: string,
    base: string,
    sha: string,
    checkRun: number,
  ) => {
    git(origin, "update-ref", `refs/pull/${number}/head`, sha);
    const pull = { number, head, base, title: `Eve's #${number}`, body: "", state: "open" as const };
    app.gitHub.pulls.push({ ...pull, fork: { owner: "eve", sha } });
    const since = { before: app.github.requests.length, branches: hypofixBranches() };
    await deliver(failedCheckRun(sha, head, checkRun));
    return since;
  };

  it("same repository, the broken line in the diff: one review whose suggestion, applied, makes the tests pass", async () => {
    const sha = failingCommit(fixedMain, "compare strictly");
    git(origin, "branch", "strict", sha);
    app.gitHub.pulls.push({
      number: 5,
      head: "strict",
      base: "main",
      title: "Strict",
      body: "",
      state: "open",
    });
    const before = app.github.requests.length;
    await deliver(failedCheckRun(sha, "strict", 9001, 5));

    expect(await outcome(sha)).toEqual({ status: "fixed", review: 5, suggestions: 1, publish: "posted" });
    expect(refWrites(before)).toEqual([]);
    expect(hypofixBranches()).toBe("");
    const [review] = app.gitHub.reviews.filter((r) => r.pull === 5);
    expect(review).toMatchObject({ commitId: sha, event: "COMMENT" });
    expect(review!.body).toContain("| confidence |");
    expect(review!.body).not.toContain("Debugging log");
    const [suggestion] = review!.comments;
    expect(suggestion).toMatchObject({ path: "bank.py", line: 22, side: "RIGHT" });
    const head = git(origin, "show", `${sha}:bank.py`);
    const applied = applySuggestion(
      head,
      suggestion!.start_line ?? suggestion!.line,
      suggestion!.line,
      suggestion!.body,
    );
    expect(testsPass(origin, sha, {})).toBe(false);
    expect(testsPass(origin, sha, { "bank.py": applied })).toBe(true);

    // The check run keeps the whole report and links the review.
    const end = checks.states.filter((s) => s.head_sha === sha).at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "success" });
    expect(end.output?.title).toBe("Validated fix suggested on #5");
    expect(end.output?.summary).toContain("Debugging log");
    expect(end.details_url).toContain("#pullrequestreview-");
  }, 300_000);

  it("same repository, the broken line outside the diff: no review, the fix pull request into its branch", async () => {
    const sha = failingCommit(app.sha, "docs", "# Bank\n\nNow with a README.\n");
    git(origin, "branch", "docs", sha);
    app.gitHub.pulls.push({
      number: 6,
      head: "docs",
      base: "legacy",
      title: "Docs",
      body: "",
      state: "open",
    });
    await deliver(failedCheckRun(sha, "docs", 9002, 6));

    expect(await outcome(sha)).toMatchObject({ status: "fixed", publish: "opened" });
    expect(app.gitHub.reviews.filter((r) => r.pull === 6)).toEqual([]);
    expect(git(origin, "rev-parse", "refs/heads/hypofix/docs^")).toBe(sha);
    const fixPr = app.gitHub.pulls.find((p) => p.head === "hypofix/docs")!;
    expect(fixPr.base).toBe("docs");
  }, 300_000);

  it("a fork's pull request, found by its head: the suggestion, and no ref, commit or pull request", async () => {
    const sha = failingCommit(fixedMain, "eve compares strictly");
    const { before, branches } = await deliverForkFailure(7, "main", "main", sha, 9003);

    expect(await outcome(sha)).toEqual({ status: "fixed", review: 7, suggestions: 1, publish: "posted" });
    expect(refWrites(before)).toEqual([]);
    expect(hypofixBranches()).toBe(branches);
    const [review] = app.gitHub.reviews.filter((r) => r.pull === 7);
    expect(review!.comments[0]).toMatchObject({ path: "bank.py", line: 22 });
  }, 300_000);

  it("a fork's pull request whose diff does not show the line: a comment with a patch `git apply` takes", async () => {
    const sha = failingCommit(app.sha, "eve writes docs", "# Bank\n\nEve's README.\n");
    const { before, branches } = await deliverForkFailure(8, "docs", "legacy", sha, 9004);

    expect(await outcome(sha)).toEqual({ status: "fixed" });
    expect(refWrites(before)).toEqual([]);
    expect(hypofixBranches()).toBe(branches);
    expect(app.gitHub.reviews.filter((r) => r.pull === 8)).toEqual([]);
    const comments = app.gitHub.comments.filter((c) => c.issue === 8);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain("git apply fix.diff");
    expect(body).toContain("bank.py is not changed by the pull request");
    const diff = /^(`{3,})diff\n([\s\S]*?)^\1$/m.exec(body)![2]!;
    const dir = mkdtempSync(join(tmpdir(), "hypofix-fork-apply-"));
    try {
      exportTree(origin, sha, dir);
      writeFileSync(join(dir, "fix.diff"), diff);
      execFileSync("git", ["apply", "fix.diff"], { cwd: dir });
      const fixed = readFileSync(join(dir, "bank.py"), "utf8");
      expect(testsPass(origin, sha, { "bank.py": fixed })).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
