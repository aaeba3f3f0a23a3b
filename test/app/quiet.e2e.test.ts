// Issue 26, quiet by default, through the webhook, the queue and a worker (`hypofix serve`)
// against a loopback GitHub: `/hypofix pause` from a writer labels the pull request
// `hypofix:skip`, and a failing check on it then posts nothing (no check run, no review);
// `/hypofix resume` clears the label; a reader's pause is refused. At most
// `max_open_pull_requests` (3) fix pull requests are open: past it the fix is not opened and
// the check run says why; below it, it is.
import { randomUUID } from "node:crypto";
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { deliveryHeaders } from "../github/payloads.js";
import { failedCheckRun, prComment } from "../helpers/app-payloads.js";
import { git } from "../helpers/git.js";
import { serveOnLoopback, until, type Running } from "../helpers/hypofix-process.js";
import { BankApp } from "../ops/bank-app.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "quiet-e2e-secret";
const PERMISSION: Record<string, string> = { maria: "write", mallory: "read" };

describe("quiet by default", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const queueName = `hypofix-quiet-e2e-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  let served: Running;
  let port = 0;
  let origin = "";

  beforeAll(async () => {
    origin = app.repos[0]!.origin;
    app.intercept = (r: Recorded) => {
      const checked = checks.route(r);
      if (checked) return checked;
      const asked = /^\/repos\/octo\/bank\/collaborators\/([^/]+)\/permission$/.exec(r.path);
      if (r.method === "GET" && asked)
        return { status: 200, body: { permission: PERMISSION[asked[1]!] ?? "none" } };
      if (r.method === "POST" && /\/issues\/comments\/\d+\/reactions$/.test(r.path))
        return { status: 201, body: { id: 1, content: "eyes" } };
      return undefined;
    };
    await app.start();
    ({ served, port } = await serveOnLoopback(
      [],
      app.env({ WEBHOOK_SECRET: SECRET, REDIS_URL, HYPOFIX_QUEUE_NAME: queueName }),
    ));
  }, 120_000);

  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await queue.queue.obliterate({ force: true });
    await queue.close();
    await app.close();
  });

  const deliver = async (event: string, body: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      headers: deliveryHeaders(event, body, SECRET),
      body,
    });
    expect(res.status).toBe(200);
  };

  /** The return value of the one job `which` picks, once it has finished. */
  const finished = async (which: (job: HypofixJob) => boolean): Promise<unknown> => {
    const find = async (): Promise<Job<HypofixJob> | undefined> =>
      (await queue.queue.getJobs(["waiting", "active", "delayed", "completed", "failed"])).find((j) =>
        which(j.data),
      );
    await until(
      "the job to finish",
      async () => {
        const job = await find();
        return job !== undefined && ((await job.isCompleted()) || (await job.isFailed()));
      },
      240_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- hypofix serve ---\n${served.output()}`);
    });
    const job = (await find())!;
    expect(job.failedReason, served.output()).toBeUndefined();
    return job.returnvalue;
  };

  const failingCommit = (message: string) =>
    git(origin, "commit-tree", `${app.sha}^{tree}`, "-p", app.sha, "-m", message);

  it("/hypofix pause labels the pull request, whose failing check then posts nothing; resume clears it", async () => {
    const sha = failingCommit("a paused change");
    git(origin, "branch", "paused", sha);
    app.gitHub.pulls.push({ number: 5, head: "paused", base: "main", title: "P", body: "", state: "open" });
    const pull = app.gitHub.pulls.find((p) => p.number === 5)!;

    await deliver("issue_comment", prComment(5, "/hypofix pause", "mallory", 301));
    expect(await finished((j) => j.commentId === 301)).toMatchObject({ status: "refused" });
    expect(pull.labels ?? []).toEqual([]);

    await deliver("issue_comment", prComment(5, "/hypofix pause", "maria", 302));
    expect(await finished((j) => j.commentId === 302)).toEqual({ status: "paused", pullRequest: 5 });
    expect(pull.labels).toEqual(["hypofix:skip"]);

    const before = app.github.requests.length;
    await deliver("check_run", failedCheckRun(sha, "paused", 9101, 5));
    expect(await finished((j) => j.headSha === sha)).toEqual({
      status: "skipped",
      reason: "pull request #5 is labelled hypofix:skip",
    });
    const writes = app.github.requests
      .slice(before)
      .filter((r) => r.method !== "GET" && r.path.startsWith("/repos/"))
      .map((r) => `${r.method} ${r.path}`);
    expect(writes, "no check run, review, comment or ref").toEqual([]);
    expect(checks.states.filter((s) => s.head_sha === sha)).toEqual([]);

    await deliver("issue_comment", prComment(5, "/hypofix resume", "maria", 303));
    expect(await finished((j) => j.commentId === 303)).toEqual({ status: "resumed", pullRequest: 5 });
    expect(pull.labels).toEqual([]);
  }, 120_000);

  it("past max_open_pull_requests the fix is not opened and the check run says why; below it, it is", async () => {
    for (const branch of ["a", "b", "c"]) {
      git(origin, "branch", `hypofix/${branch}`, app.sha);
      app.gitHub.pulls.push({
        number: 40 + app.gitHub.pulls.length,
        head: `hypofix/${branch}`,
        base: branch,
        title: `Fix ${branch}`,
        body: "",
        state: "open",
      });
    }
    const sha = failingCommit("one failure too many");
    git(origin, "branch", "capped", sha);
    await deliver("check_run", failedCheckRun(sha, "capped", 9102));
    expect(await finished((j) => j.headSha === sha)).toEqual({ status: "fixed", capped: true });
    expect(app.gitHub.head("hypofix/capped")).toBeUndefined();
    const end = checks.states.filter((s) => s.head_sha === sha).at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(end.output?.summary).toContain("3 Hypofix pull requests are open in this repository");
    expect(end.output?.summary).toContain("Debugging log");

    app.gitHub.pulls.find((p) => p.head === "hypofix/a")!.state = "closed";
    const next = failingCommit("room again");
    git(origin, "branch", "roomy", next);
    await deliver("check_run", failedCheckRun(next, "roomy", 9103));
    expect(await finished((j) => j.headSha === next)).toMatchObject({ status: "fixed", publish: "opened" });
    expect(git(origin, "rev-parse", "refs/heads/hypofix/roomy^")).toBe(next);
  }, 300_000);
});
