import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import nock from "nock";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveriesToRedeliver, redeliverFailed, type AppHookApi } from "../../src/inbound/redeliver.js";
import { queueKeys } from "../../src/queue/keys.js";
import { appPrivateKey } from "../helpers/git.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();
const delivery = (id: number, guid: string, minutesAgo: number, status_code: number) => ({
  id,
  guid,
  delivered_at: at(minutesAgo),
  redelivery: false,
  duration: 0.1,
  status: status_code === 200 ? "OK" : "Internal Server Error",
  status_code,
  event: "check_run",
  action: "completed",
  installation_id: 7,
  repository_id: 1,
});

describe("deliveriesToRedeliver", () => {
  it("picks, per event, the latest failed attempt of events never answered 2xx within the window", () => {
    const picked = deliveriesToRedeliver(
      [
        delivery(1, "ok", 5, 200),
        delivery(2, "failed-then-ok", 9, 500),
        delivery(3, "failed-then-ok", 4, 202),
        delivery(4, "failed-twice", 8, 500),
        delivery(5, "failed-twice", 3, 0),
        delivery(6, "too-old", 60 * 30, 500),
      ],
      NOW - 24 * 3600_000,
    );
    expect(picked.map((d) => [d.guid, d.id])).toEqual([["failed-twice", 5]]);
  });
});

/** Against GitHub's API shape through nock (pagination by Link header cursor), real Redis for the attempt count. */
describe("redeliverFailed (GitHub via nock, real Redis)", () => {
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const queueName = `hypofix-test-${randomUUID()}`;
  const keys = queueKeys(queueName);
  let app: AppHookApi;

  beforeAll(async () => {
    nock.disableNetConnect();
    const probot = new Probot({
      appId: 1,
      privateKey: appPrivateKey(),
      log: pino({ level: "silent" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    app = (await probot.auth()) as unknown as AppHookApi;
  });
  afterAll(async () => {
    const left = await redis.keys(`hypofix:${queueName}:*`);
    if (left.length > 0) await redis.del(...left);
    redis.disconnect();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const deliveries = () =>
    nock("https://api.github.com")
      .get("/app/hook/deliveries")
      .query({ per_page: 100 })
      .reply(200, [delivery(11, "a", 1, 500), delivery(12, "b", 2, 200)], {
        link: '<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_12>; rel="next"',
      })
      .get("/app/hook/deliveries")
      .query({ per_page: 100, cursor: "v1_12" })
      .reply(200, [delivery(13, "c", 3, 502), delivery(14, "d", 60 * 25, 500)], {
        link: '<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_14>; rel="next"',
      });

  it("asks GitHub to redeliver the failed deliveries, pages until past the window, and stops asking after 3 tries", async () => {
    const asked: number[] = [];
    const redeliveries = (times: number) =>
      nock("https://api.github.com")
        .post(/^\/app\/hook\/deliveries\/\d+\/attempts$/)
        .times(times)
        .reply(202, function () {
          asked.push(Number(/deliveries\/(\d+)/.exec(this.req.path)![1]));
          return {};
        });
    const log = pino({ level: "silent" });
    for (let sweep = 1; sweep <= 3; sweep++) {
      deliveries();
      redeliveries(2);
      expect(await redeliverFailed(app, { redis, keys, log, now: NOW })).toEqual(["a", "c"]);
    }
    deliveries();
    expect(await redeliverFailed(app, { redis, keys, log, now: NOW })).toEqual([]);
    // The third page (cursor v1_14) was never asked for: page two reached past the window.
    expect(nock.pendingMocks()).toEqual([]);
    expect(asked).toEqual([11, 13, 11, 13, 11, 13]);
  });
});
