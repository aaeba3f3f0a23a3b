import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { assertRedisReachable } from "../../src/queue/redis.js";

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
