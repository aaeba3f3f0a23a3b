import { Redis } from "ioredis";
import nock from "nock";
import { pino } from "pino";
import { createProbot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPrivateKey } from "../helpers/git.js";
import { RedisServer } from "../helpers/redis-server.js";

/** The failure app-idle.test.ts guards against, reproduced with Probot's stock setup (REDIS_URL given to Probot). */
describe("Probot's stock setup after Redis forgets the rate limiter's keys", () => {
  const redis = new RedisServer(7102);
  let flusher: Redis;

  beforeAll(async () => {
    await redis.start();
    flusher = new Redis(redis.url);
    nock.disableNetConnect();
  });
  afterAll(async () => {
    flusher.disconnect();
    await redis.dispose();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it("fails every API call with ERR SETTINGS_KEY_NOT_FOUND", async () => {
    nock("https://api.github.com")
      .post("/app/installations/7/access_tokens")
      .reply(200, { token: "ghs_idle", permissions: {} })
      .get("/repos/octo/bank")
      .reply(200, { full_name: "octo/bank" });
    const env = { REDIS_URL: redis.url, APP_ID: "1", PRIVATE_KEY: appPrivateKey() };
    const octokit = await createProbot({ env, overrides: { log: pino({ level: "silent" }) } }).auth(7);
    await octokit.rest.repos.get({ owner: "octo", repo: "bank" });
    expect(await flusher.dbsize()).toBeGreaterThan(0);
    await flusher.flushall();
    await expect(octokit.rest.repos.get({ owner: "octo", repo: "bank" })).rejects.toThrow(
      /SETTINGS_KEY_NOT_FOUND/,
    );
  });
});
