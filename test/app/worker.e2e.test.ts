import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import { FakeGitHub, type Recorded } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { bankOrigin } from "../helpers/bank-origin.js";
import { appPrivateKey, git } from "../helpers/git.js";
import { hypofix, type Running } from "../helpers/hypofix-process.js";
import { tableColumn } from "../helpers/markdown.js";
import { PR_BODY, PR_BODY_CLAIMS } from "../helpers/pr-body.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const privateKey = appPrivateKey();

/**
 * The App's whole back half for real: a job in the real Redis queue, `hypofix worker`
 * as its own process, the repository fetched with git, the bundled example fixed in
 * the real Docker sandbox, and the pull request opened against GitHub's API (a fake
 * HTTP server on loopback, the one part that cannot exist here).
 */
describe("hypofix worker end to end", () => {
  const queueName = `hypofix-e2e-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  const origin = mkdtempSync(join(tmpdir(), "hypofix-origin-"));
  let sha = "";
  let fixedSha = "";
  let worker: Running;
  let github: FakeGitHub;
  let gitHub: GitBackedGitHub;
  const checks = new FakeChecks();

  beforeAll(async () => {
    // The failing commit, and the human fix on top for the /explain job to audit against it.
    ({ sha, fixedSha } = bankOrigin(origin));
    // main's tip is the failing commit (so GitHub shows the head is the repository's own); the fix is on `fix`.
    git(origin, "branch", "fix", fixedSha);
    git(origin, "reset", "--quiet", "--hard", sha);

    // Git data, pull requests and comments land in the origin repository itself.
    gitHub = new GitBackedGitHub(origin, { owner: "octo", name: "bank" });
    github = new FakeGitHub((r: Recorded) => {
      const checked = checks.route(r);
      if (checked) return checked;
      // The owner's `.github` repository holds the org-level config, which extends acme/settings.
      const config = /^\/repos\/acme\/(\.github|settings)\/contents\/\.github(?:\/|%2F)hypofix\.yml/.exec(
        r.path,
      );
      if (r.method === "GET" && config) {
        return {
          status: 200,
          body: config[1] === ".github" ? "_extends: settings\n" : "ignore_paths: [bank.py]\n",
        };
      }
      const fork = { sha, ref: "patch-1", repo: { full_name: "someone/bank" } };
      const routes: [string, RegExp, unknown][] = [
        ["POST", /^\/app\/installations\/7\/access_tokens$/, { token: "ghs_e2e", permissions: {} }],
        ["GET", /^\/repos\/(octo|acme)\/bank$/, { clone_url: `file://${origin}`, default_branch: "main" }],
        ["GET", /^\/repos\/octo\/gone$/, { clone_url: `file://${origin}-gone`, default_branch: "main" }],
        ["POST", /\/check-runs$/, { id: 1 }],
        [
          "GET",
          /^\/repos\/octo\/bank\/pulls\/5$/,
          {
            number: 5,
            title: "Allow withdrawing the entire balance",
            body: PR_BODY,
            base: { sha, ref: "main" },
            head: { sha: fixedSha, ref: "fix", repo: { full_name: "octo/bank" } },
          },
        ],
        ["GET", /^\/repos\/octo\/bank\/collaborators\/writer\/permission$/, { permission: "write" }],
        ["POST", /^\/repos\/octo\/bank\/issues\/comments\/99\/reactions$/, { id: 1, content: "eyes" }],
        [
          "GET",
          /^\/repos\/octo\/bank\/pulls\/6$/,
          { number: 6, title: "From a fork", body: "", base: { sha, ref: "main" }, head: fork },
        ],
      ];
      const hit = routes.find(([m, p]) => m === r.method && p.test(r.path));
      return hit ? { status: r.method === "POST" ? 201 : 200, body: hit[2] } : gitHub.route(r);
    });
    const host = await github.start();

    worker = hypofix(["worker"], {
      ...process.env,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      GHE_HOST: host,
      GHE_PROTOCOL: "http",
      REDIS_URL,
      HYPOFIX_QUEUE_NAME: queueName,
      LOG_LEVEL: "info",
    });
  });

  afterAll(async () => {
    worker?.child.kill("SIGTERM");
    await github?.stop();
    gitHub?.dispose();
    await queue.queue.obliterate({ force: true });
    await queue.close();
    rmSync(origin, { recursive: true, force: true });
  });

  const finish = async (input: unknown, attempts?: number) => {
    const events = new QueueEvents(queueName, { connection: connectionFromUrl(REDIS_URL) });
    try {
      const { id } = attempts
        ? // A job that must fail for good, quickly: few attempts, short backoff.
          {
            id: (
              await queue.queue.add("x", input as never, { attempts, backoff: { type: "fixed", delay: 200 } })
            ).id!,
          }
        : await queue.enqueue(input);
      const job = (await queue.queue.getJob(id))!;
      return await job.waitUntilFinished(events, 240_000).catch((err: unknown) => {
        throw new Error(`${String(err)}\n--- worker output ---\n${worker.output()}`);
      });
    } finally {
      await events.close();
    }
  };

  /** A failed CI run of the bank example's failing commit, as the webhook enqueues it. */
  const ciFailure = (owner: string, over: Record<string, unknown> = {}) => ({
    kind: "ci-failure",
    installationId: 7,
    repo: { owner, name: "bank" },
    headSha: sha,
    headBranch: "main",
    ...over,
  });

  it("turns a failing commit into a validated fix pull request with the debugging log", async () => {
    const summary = await finish(ciFailure("octo"));
    const pull = gitHub.pulls[0]!;
    expect(summary).toEqual({ status: "fixed", pullRequest: pull.number, publish: "opened" });
    const pullUrl = `https://github.example/octo/bank/pull/${pull.number}`;

    const tokens = github.requests.filter((r) => r.path === "/app/installations/7/access_tokens");
    expect(tokens.map((r) => r.body)).toContainEqual({
      repositories: ["bank"],
      permissions: { contents: "read" },
    });
    // One tree with the file inline (no blob per file), committed on the branch the PR comes from.
    expect(github.find("POST", /\/git\/blobs$/)).toBeUndefined();
    const tree = github.find("POST", /\/git\/trees$/)?.body as { tree: { path: string; content: string }[] };
    expect(tree.tree.map((t) => t.path)).toEqual(["bank.py"]);
    expect(git(origin, "show", `refs/heads/hypofix/main:bank.py`)).toContain("return amount <= available");
    expect(git(origin, "rev-parse", "refs/heads/hypofix/main^")).toBe(sha);
    const pr = github.find("POST", /\/pulls$/)?.body as {
      base: string;
      head: string;
      title: string;
      body: string;
    };
    expect(pr.base).toBe("main");
    expect(pr.head).toBe("hypofix/main");
    expect(pr.body).toContain("```diff");
    expect(pr.body).toContain("<details>");
    expect(pr.body).toContain("[No exception triggered]");
    // One check run, in progress from the start, a summary per phase, then the PR link.
    const seen = checks.sequence(sha);
    expect(seen[0]).toBe("in_progress: Working: fetching the commit");
    const phases = seen.map((s) => /^in_progress: Working: (\w+) done$/.exec(s)?.[1]).filter(Boolean);
    expect(phases).toEqual(expect.arrayContaining(["reproduce", "localize", "debug", "validate", "audit"]));
    expect(phases.indexOf("reproduce")).toBeLessThan(phases.indexOf("audit"));
    expect(seen.at(-1)).toBe(`completed/success: Validated fix proposed in #${pull.number}`);
    const end = checks.states.at(-1)!;
    expect(end.details_url).toBe(pullUrl);
    expect(end.output?.summary).toMatch(/^a patch passes .* keeps the whole suite green: \[#\d+\]\(https:/);
    expect(end.output?.summary).toContain(`[#${pull.number}](${pullUrl})`);
    expect(new Set(checks.states.map((c) => c.id)).size).toBe(1);
    // The installation token reaches git only through the environment, never the logs, and is revoked after the job.
    expect(worker.output()).not.toContain("ghs_e2e");
    expect(github.find("DELETE", /^\/installation\/token$/)).toBeDefined();
  });

  it("answers /explain with the audit of the pull request's change, as a reply to who asked", async () => {
    // A command as the webhook enqueues it: the worker resolves the head, checks the writer, reacts.
    const summary = await finish({
      kind: "explain",
      trigger: "command",
      installationId: 7,
      repo: { owner: "octo", name: "bank" },
      prNumber: 5,
      requestedBy: "writer",
      commentId: 99,
      // Written after the head commit: the commenter saw this head.
      commentedAt: new Date().toISOString(),
    });
    expect(summary).toEqual({ status: "explained" });
    expect(github.find("POST", /\/issues\/comments\/99\/reactions$/)?.body).toEqual({ content: "eyes" });
    expect(checks.sequence(fixedSha).at(-1)).toBe("completed/success: Change explained and audited");
    const reply = github.find("POST", /\/issues\/5\/comments$/)?.body as { body: string };
    // The heading opens the reply on its own line (GitHub renders it as a heading), then who asked.
    expect(reply.body).toMatch(/^### .*\n\nRequested by @writer\.\n/);
    // Exactly the prose claims of the title, the body and the commit message (read with marked).
    expect(tableColumn(reply.body, "Claim")).toEqual([
      "Allow withdrawing the entire balance",
      ...PR_BODY_CLAIMS,
    ]);
  });

  it("finds no fix under the owner's .github config (with _extends) and ends its check run neutral", async () => {
    const summary = await finish(ciFailure("acme"));
    // ignore_paths comes from acme/settings, which acme/.github extends: the only source file is off limits.
    expect(summary).toEqual({ status: "no-fix" });
    const end = checks.states.at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral", head_sha: sha });
    expect(end.output?.summary).toContain("no line a patch may change is suspicious");
    expect(checks.states.filter((c) => c.id === end.id)[0]!.status).toBe("in_progress");
    expect(
      github.requests.filter((r) => r.method === "POST" && r.path.startsWith("/repos/acme/bank/pulls")),
    ).toEqual([]);
  });

  it("concludes the check run failure with the reason when the job fails for good", async () => {
    const gone = "0123456789abcdef0123456789abcdef01234567";
    await expect(
      finish(
        { kind: "ci-failure", installationId: 7, repo: { owner: "octo", name: "gone" }, headSha: gone },
        2,
      ),
    ).rejects.toThrow(/could not fetch 0123456789ab/);
    // Both attempts keep one check run, and the final-failure hook ends it.
    await expect
      .poll(() => checks.sequence(gone).at(-1), { timeout: 10_000 })
      .toBe("completed/failure: Hypofix failed");
    const runs = checks.states.filter((c) => c.head_sha === gone);
    expect(new Set(runs.map((c) => c.id)).size).toBe(1);
    expect(runs.filter((c) => c.output?.summary.includes("attempt 2 failed"))).not.toEqual([]);
    expect(runs.at(-1)!.output?.summary).toContain("the job failed for good: could not fetch 0123456789ab");
  });

  it("fixes a fork's head in a comment at most: no branch, no pull request", async () => {
    const before = github.requests.length;
    const summary = await finish(
      ciFailure("octo", {
        headBranch: undefined,
        prNumber: 6,
        headRepo: { owner: "someone", name: "bank" },
        // A job id of its own (the first test fixed the same commit of octo/bank).
        tests: ["tests/test_bank.py::test_withdraw_entire_balance"],
      }),
    );
    expect(summary).toEqual({ status: "fixed" });
    const during = github.requests.slice(before);
    expect(
      during.filter((r) => r.method === "POST" && /\/git\/refs$|\/pulls$|\/git\/blobs$/.test(r.path)),
    ).toEqual([]);
    const comments = during.filter((r) => r.method === "POST" && r.path.endsWith("/issues/6/comments"));
    expect(comments).toHaveLength(1);
    expect((comments[0]!.body as { body: string }).body).toContain("```diff");
  });
});
