import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { assertRedisReachable, logRedisState } from "../../src/queue/redis.js";
import { RedisServer } from "../helpers/redis-server.js";

describe("assertRedisReachable", () => {
  it("passes against the real Redis", async () => {
    await expect(
      assertRedisReachable(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
    ).resolves.toBeUndefined();
  });

  it("names the URL (without its password) and what to do when nothing listens", async () => {
    const err = await assertRedisReachable("redis://:hunter2@127.0.0.1:1", 500).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).oneLine()).toMatch(
      /^Redis is not reachable at redis:\/\/\*\*\*@127\.0\.0\.1:1 .* — start redis-server or set REDIS_URL$/,
    );
    expect((err as UserError).oneLine()).not.toContain("hunter2");
  });
});

describe("logRedisState (a Redis of its own, stopped and started)", () => {
  it("logs one structured line per state change, none per retry, and no stack", async () => {
    const server = new RedisServer(7104);
    await server.start();
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const client = new Redis(server.url, { lazyConnect: true, retryStrategy: () => 100 });
    logRedisState(client, pino(sink), "test");
    try {
      await client.connect();
      await server.stop();
      // Down for a second: ioredis retries about ten times meanwhile.
      await new Promise((r) => setTimeout(r, 1000));
      await server.start();
      await client.ping();
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      client.disconnect();
      await server.dispose();
    }
    // About ten retries while Redis was down (each a close and a reconnecting event): one line each.
    expect(lines.map((l) => l.state)).toEqual([
      "connect",
      "ready",
      "close",
      "reconnecting",
      "connect",
      "ready",
      // Then our own disconnect.
      "close",
      "end",
    ]);
    const down = lines.find((l) => l.state === "close")!;
    expect(down).toMatchObject({ redis: "test", msg: "redis state" });
    expect(JSON.stringify(lines)).not.toMatch(/\n\s+at /);
  });
});
