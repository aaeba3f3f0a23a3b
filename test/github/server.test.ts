import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_PATH, startWebhookServer } from "../../src/inbound/server.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { appPrivateKey } from "../helpers/git.js";
import { examplePayload, webhookSignature } from "./payloads.js";

const SECRET = "webhook-secret";
const privateKey = appPrivateKey();

describe("webhook server (real HTTP, real Redis, GitHub API via nock)", () => {
  const queue = new JobQueue(
    connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
    `hypofix-test-${randomUUID()}`,
  );
  let server: Server;
  let base = "";

  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect("127.0.0.1");
    const probot = new Probot({
      appId: 1,
      privateKey,
      secret: SECRET,
      log: pino({ level: "silent" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    server = await startWebhookServer({ probot, queue, port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await queue.queue.obliterate({ force: true });
    await queue.close();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const post = (body: string, signature: string) =>
    fetch(`${base}${WEBHOOK_PATH}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "workflow_run",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": signature,
      },
      body,
    });

  const failedRun = () => {
    const payload = examplePayload<{ workflow_run: { conclusion: string | null } }>(
      "workflow_run",
      (p) => p.action === "completed",
    );
    payload.workflow_run.conclusion = "failure";
    return JSON.stringify({ ...payload, installation: { id: 3 } });
  };

  it("queues a job for a correctly signed failed workflow_run", async () => {
    nock("https://api.github.com")
      .post("/app/installations/3/access_tokens")
      .reply(200, { token: "t", permissions: {} })
      .get(/\/contents\//)
      .times(2)
      .reply(404, {});
    const body = failedRun();
    const signature = webhookSignature(body, SECRET);
    const res = await post(body, signature);
    expect(res.status).toBeLessThan(300);
    const jobs = await queue.queue.getJobs(["waiting"]);
    expect(jobs.map((j) => j.data)).toEqual([
      expect.objectContaining({ kind: "ci-failure", installationId: 3, workflowRunId: 1589141559 }),
    ]);
  });

  it("rejects a webhook with a bad signature and queues nothing", async () => {
    const before = await queue.queue.getJobCounts("waiting");
    const res = await post(failedRun(), `sha256=${"0".repeat(64)}`);
    expect(res.status).toBe(400);
    expect(await queue.queue.getJobCounts("waiting")).toEqual(before);
  });

  it("answers the liveness probe; no dashboard without configured credentials (test/ops has both sides)", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
