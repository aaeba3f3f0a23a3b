import { randomUUID } from "node:crypto";
import nock from "nock";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hypofixApp } from "../../src/inbound/app.js";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { appPrivateKey } from "../helpers/git.js";
import { examplePayload } from "./payloads.js";

const privateKey = appPrivateKey();
type Delivery = Parameters<Probot["receive"]>[0];

/**
 * The webhook path against real Redis and real payload shapes, with GitHub's API
 * unreachable: nock refuses every request, and any attempt is counted. A handler
 * that called GitHub would fail the delivery (and the count would say so).
 */
describe("Hypofix app: verify, validate, enqueue; no GitHub API call", () => {
  const queue = new JobQueue(
    connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
    `hypofix-test-${randomUUID()}`,
  );
  let probot: Probot;
  let apiCalls: string[] = [];
  const onAttempt = (req: { method: string; path: string }) => apiCalls.push(`${req.method} ${req.path}`);

  beforeAll(() => {
    nock.disableNetConnect();
    nock.emitter.on("no match", onAttempt);
  });
  afterAll(async () => {
    nock.emitter.off("no match", onAttempt);
    nock.enableNetConnect();
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });
  beforeEach(async () => {
    apiCalls = [];
    await queue.queue.obliterate({ force: true });
    probot = new Probot({
      appId: 123,
      privateKey,
      log: pino({ level: "silent" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false } }),
    });
    await probot.load(hypofixApp(queue, 123));
  });
  afterEach(() => expect(apiCalls).toEqual([]));

  const jobs = async (): Promise<HypofixJob[]> =>
    (await queue.queue.getJobs(["waiting"]))
      .map((j) => j.data)
      .sort((a, b) => a.kind.localeCompare(b.kind) || (a.commentId ?? 0) - (b.commentId ?? 0));
  const deliver = (name: string, payload: unknown, id: string = randomUUID()) =>
    // Probot's types want the exact payload union; the examples are that shape at run time.
    probot.receive({
      id,
      name,
      payload: { ...(payload as object), installation: { id: 7 } },
    } as unknown as Delivery);

  const failedCheckRun = () =>
    examplePayload<{ check_run: { head_sha: string; conclusion: string } }>(
      "check_run",
      (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === "failure",
    );

  it("queues one job for a failed check run, redelivered or seen again as its workflow run", async () => {
    const payload = failedCheckRun();
    await deliver("check_run", payload, "delivery-1");
    await deliver("check_run", payload, "delivery-1");
    await deliver("check_run", payload, "delivery-2");
    const run = examplePayload<{
      workflow_run: Record<string, unknown>;
      repository: unknown;
    }>(
      "workflow_run",
      (p) => p.action === "completed" && (p.repository as { name: string }).name === "Hello-World",
    );
    run.workflow_run.conclusion = "failure";
    run.workflow_run.head_sha = payload.check_run.head_sha;
    run.workflow_run.head_branch = "changes";
    run.workflow_run.head_repository = { name: "Hello-World", full_name: "Codertocat/Hello-World" };
    await deliver("workflow_run", run);
    expect(await jobs()).toEqual([
      expect.objectContaining({
        kind: "ci-failure",
        installationId: 7,
        prNumber: 2,
        checkRunId: 128620228,
        deliveryId: "delivery-1",
        headRepo: { owner: "Codertocat", name: "Hello-World" },
      }),
    ]);
  });

  it("queues a ci-green job for a success on a branch (and a fix job for its failure)", async () => {
    const ok = examplePayload("check_run", (p) => {
      const run = p.check_run as { conclusion: string; app: { id: number } };
      return p.action === "completed" && run.conclusion === "success";
    });
    await deliver("check_run", ok);
    expect(await jobs()).toEqual([expect.objectContaining({ kind: "ci-green", headBranch: "changes" })]);
  });

  function comment(body: string, options: { id?: number; bot?: boolean } = {}) {
    const payload = examplePayload<{
      comment: { id: number; body: string; user: { login: string; type: string } };
      issue: Record<string, unknown>;
    }>("issue_comment", (p) => p.action === "created");
    payload.comment.body = body;
    if (options.id) payload.comment.id = options.id;
    if (options.bot) payload.comment.user.type = "Bot";
    payload.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    return payload;
  }

  it("queues a command job without asking GitHub anything: who may run it and the head are the job's business", async () => {
    await deliver("issue_comment", comment("/explain"), "c-1");
    expect(await jobs()).toEqual([
      {
        kind: "explain",
        trigger: "command",
        installationId: 7,
        repo: { owner: "Codertocat", name: "Hello-World" },
        prNumber: 1,
        requestedBy: "Codertocat",
        commentId: 492700400,
        commentedAt: "2019-05-15T15:20:21Z",
        deliveryId: "c-1",
      },
    ]);
  });

  it("runs every /fix comment anew, but a redelivered comment once", async () => {
    await deliver("issue_comment", comment("/fix", { id: 1 }), "c-1");
    await deliver("issue_comment", comment("/fix", { id: 1 }), "c-1");
    await deliver("issue_comment", comment("/fix", { id: 2 }), "c-2");
    expect((await jobs()).map((j) => [j.kind, j.commentId])).toEqual([
      ["ci-failure", 1],
      ["ci-failure", 2],
    ]);
  });

  it("queues /fix <text> with the text as the maintainer's instructions, and /hypofix pause as a pause job", async () => {
    await deliver("issue_comment", comment("/fix keep the API", { id: 3 }), "c-3");
    await deliver("issue_comment", comment("/hypofix pause", { id: 4 }), "c-4");
    expect((await jobs()).map((j) => [j.kind, j.commentId, j.instructions])).toEqual([
      ["ci-failure", 3, "keep the API"],
      ["pause", 4, undefined],
    ]);
  });

  it("ignores commands in code or quotes, comments by bots, and comments on issues", async () => {
    await deliver("issue_comment", comment("```\n/fix\n```"));
    await deliver("issue_comment", comment("> /fix"));
    await deliver("issue_comment", comment("/fix", { bot: true }));
    const onIssue = comment("/fix");
    delete onIssue.issue.pull_request;
    await deliver("issue_comment", onIssue);
    expect(await jobs()).toEqual([]);
  });

  it("cancels queued jobs of a branch's or pull request's old head on push and synchronize", async () => {
    const old = failedCheckRun();
    old.check_run.head_sha = "a".repeat(40);
    await deliver("check_run", old);
    await deliver("check_run", failedCheckRun());
    expect(await jobs()).toHaveLength(2);

    const sync = examplePayload("pull_request", (p) => p.action === "synchronize");
    await deliver("pull_request", sync);
    expect((await jobs()).map((j) => j.headSha)).toEqual(["ec26c3e57ca3a959ca5aad62de7213c562f8c821"]);

    const push = examplePayload<{ ref: string; after: string }>(
      "push",
      (p) => p.ref === "refs/heads/master" && p.deleted === false,
    );
    push.ref = "refs/heads/changes";
    await deliver("push", push);
    expect(await jobs()).toEqual([]);
  });
});
