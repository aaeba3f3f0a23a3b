import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import nock from "nock";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppProbot } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import { WEBHOOK_PATH, startWebhookServer } from "../../src/inbound/server.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { appPrivateKey } from "../helpers/git.js";
import { RedisServer } from "../helpers/redis-server.js";
import { deliveryHeaders, examplePayload } from "./payloads.js";

const SECRET = "idle-secret";
const log = pino({ level: "silent" });

/**
 * Probot keeps its GitHub rate limiter (Bottleneck) in Redis whenever REDIS_URL is
 * set; after two idle minutes its keys expire and every API call fails with
 * `ERR SETTINGS_KEY_NOT_FOUND`. Expiry is the keys going away, so the test deletes
 * them (FLUSHALL on a Redis of its own) instead of waiting two minutes.
 * app-idle-stock.test.ts shows the same steps failing with Probot's stock setup
 * (a file of its own: @octokit/plugin-throttling builds its limiter once per process).
 */
describe("after Redis forgets the rate limiter's keys (two idle minutes)", () => {
  const redis = new RedisServer(7101);
  const env = { REDIS_URL: "", APP_ID: "1", PRIVATE_KEY: appPrivateKey(), WEBHOOK_SECRET: SECRET };
  let flusher: Redis;

  beforeAll(async () => {
    await redis.start();
    env.REDIS_URL = redis.url;
    flusher = new Redis(redis.url);
    nock.disableNetConnect();
    nock.enableNetConnect("127.0.0.1");
  });
  afterAll(async () => {
    flusher.disconnect();
    await redis.dispose();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const github = () =>
    nock("https://api.github.com")
      .post("/app/installations/7/access_tokens")
      .reply(200, { token: "ghs_idle", permissions: {} })
      .get("/repos/octo/bank")
      .times(2)
      .reply(200, { full_name: "octo/bank" });

  it("keeps Hypofix's Probot working: API calls go through and a webhook is answered 2xx", async () => {
    github();
    const probot = createAppProbot(loadConfig(env), log, true, env);
    const octokit = await probot.auth(7);
    await octokit.rest.repos.get({ owner: "octo", repo: "bank" });
    // Nothing of Probot's lives in Redis: there is nothing to expire.
    expect(await flusher.dbsize()).toBe(0);
    await flusher.flushall();
    await octokit.rest.repos.get({ owner: "octo", repo: "bank" });

    const queue = new JobQueue(
      connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
      `hypofix-test-${randomUUID()}`,
    );
    const server: Server = await startWebhookServer({ probot, queue, port: 0, host: "127.0.0.1" });
    try {
      const payload = examplePayload<{ workflow_run: { conclusion: string | null } }>(
        "workflow_run",
        (p) => p.action === "completed",
      );
      payload.workflow_run.conclusion = "failure";
      const body = JSON.stringify({ ...payload, installation: { id: 7 } });
      await flusher.flushall();
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${WEBHOOK_PATH}`, {
        method: "POST",
        headers: deliveryHeaders("workflow_run", body, SECRET),
        body,
      });
      expect(res.status).toBeLessThan(300);
      expect(await queue.queue.getJobCounts("waiting")).toEqual({ waiting: 1 });
    } finally {
      await new Promise((r) => server.close(r));
      await queue.queue.obliterate({ force: true });
      await queue.close();
    }
    expect(nock.pendingMocks()).toEqual([]);
  });
});
