import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { FakeGitHub, type Recorded } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { appPrivateKey, git } from "../helpers/git.js";
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
  let worker: ChildProcess;
  let workerOutput = "";
  let github: FakeGitHub;
  let gitHub: GitBackedGitHub;

  beforeAll(async () => {
    cpSync("examples/bank-account", origin, { recursive: true });
    git(origin, "init", "--quiet", "--initial-branch=main");
    git(origin, "config", "uploadpack.allowAnySHA1InWant", "true");
    git(origin, "add", ".");
    git(origin, "commit", "--quiet", "-m", "bank account with a failing test");
    sha = git(origin, "rev-parse", "HEAD");
    // A second commit, the human fix, for the /explain job to audit against `sha`.
    const bank = join(origin, "bank.py");
    writeFileSync(bank, readFileSync(bank, "utf8").replace("amount < available", "amount <= available"));
    git(origin, "commit", "--quiet", "-am", "Allow withdrawing the entire balance");
    fixedSha = git(origin, "rev-parse", "HEAD");

    // Git data, pull requests and comments land in the origin repository itself.
    gitHub = new GitBackedGitHub(origin, { owner: "octo", name: "bank" });
    github = new FakeGitHub((r: Recorded) => {
      const routes: [string, RegExp, unknown][] = [
        ["POST", /^\/app\/installations\/7\/access_tokens$/, { token: "ghs_e2e", permissions: {} }],
        ["GET", /^\/repos\/octo\/bank$/, { clone_url: `file://${origin}`, default_branch: "main" }],
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
      ];
      const hit = routes.find(([m, p]) => m === r.method && p.test(r.path));
      return hit ? { status: r.method === "POST" ? 201 : 200, body: hit[2] } : gitHub.route(r);
    });
    const host = await github.start();

    worker = spawn(process.execPath, ["bin/hypofix.js", "worker"], {
      env: {
        ...process.env,
        APP_ID: "1",
        PRIVATE_KEY: privateKey,
        GHE_HOST: host,
        GHE_PROTOCOL: "http",
        REDIS_URL,
        HYPOFIX_QUEUE_NAME: queueName,
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d: Buffer) => (workerOutput += d.toString()));
    worker.stderr!.on("data", (d: Buffer) => (workerOutput += d.toString()));
  });

  afterAll(async () => {
    worker?.kill("SIGTERM");
    await github?.stop();
    gitHub?.dispose();
    await queue.queue.obliterate({ force: true });
    await queue.close();
    rmSync(origin, { recursive: true, force: true });
  });

  const finish = async (input: unknown) => {
    const events = new QueueEvents(queueName, { connection: connectionFromUrl(REDIS_URL) });
    try {
      const { id } = await queue.enqueue(input);
      const job = (await queue.queue.getJob(id))!;
      return await job.waitUntilFinished(events, 240_000).catch((err: unknown) => {
        throw new Error(`${String(err)}\n--- worker output ---\n${workerOutput}`);
      });
    } finally {
      await events.close();
    }
  };

  it("turns a failing commit into a validated fix pull request with the debugging log", async () => {
    const summary = await finish({
      kind: "ci-failure",
      installationId: 7,
      repo: { owner: "octo", name: "bank" },
      headSha: sha,
      headBranch: "main",
    });
    const pull = gitHub.pulls[0]!;
    expect(summary).toEqual({ status: "fixed", pullRequest: pull.number, publish: "opened" });

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
    const check = github.find("POST", /\/check-runs$/)?.body as { conclusion: string; head_sha: string };
    expect(check).toMatchObject({ conclusion: "success", head_sha: sha });
    // The installation token reaches git only through the environment, never the logs, and is revoked after the job.
    expect(workerOutput).not.toContain("ghs_e2e");
    expect(github.find("DELETE", /^\/installation\/token$/)).toBeDefined();
  });

  it("answers /explain with the audit of the pull request's change, as a reply to who asked", async () => {
    const summary = await finish({
      kind: "explain",
      installationId: 7,
      repo: { owner: "octo", name: "bank" },
      headSha: fixedSha,
      prNumber: 5,
      requestedBy: "writer",
    });
    expect(summary).toEqual({ status: "explained" });
    const reply = github.find("POST", /\/repos\/octo\/bank\/issues\/5\/comments$/)?.body as { body: string };
    // The heading opens the reply on its own line (GitHub renders it as a heading), then who asked.
    expect(reply.body).toMatch(/^### .*\n\nRequested by @writer\.\n/);
    // Exactly the prose claims of the title, the body and the commit message (read with marked).
    expect(tableColumn(reply.body, "Claim")).toEqual([
      "Allow withdrawing the entire balance",
      ...PR_BODY_CLAIMS,
    ]);
  });
});
