import type { Redis } from "ioredis";
import type { TokenLedger } from "../llm/token-ledger.js";
import type { QueueKeys } from "./keys.js";

/** Deletes the key only while it still holds our token (a lock that expired may be someone else's now). */
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;
/** Extends the key only while it still holds our token. */
const RENEW = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`;

export interface RepoLock {
  release(): Promise<void>;
}

/**
 * One job at a time per repository: a Redis lock held while the job runs, renewed
 * every third of its time to live, so a dead worker's lock is gone within `ttlMs`.
 * Undefined when another job holds it.
 */
export async function acquireRepoLock(
  redis: Redis,
  keys: QueueKeys,
  repo: string,
  jobId: string,
  ttlMs: number,
): Promise<RepoLock | undefined> {
  const key = keys.repoLock(repo);
  const token = `${jobId}:${process.pid}:${Date.now()}`;
  if ((await redis.set(key, token, "PX", ttlMs, "NX")) !== "OK") {
    // The same job, re-run after its worker lost the BullMQ lock, may take over its own repository lock.
    const holder = await redis.get(key);
    if (!holder?.startsWith(`${jobId}:`)) return undefined;
    await redis.set(key, token, "PX", ttlMs);
  }
  const timer = setInterval(() => {
    redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined);
  }, ttlMs / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await redis.eval(RELEASE, 1, key, token);
    },
  };
}

/** The UTC day of a moment, as quota keys name it. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * Quota keys are named by their UTC day and read only during it: expiring two days after
 * their last write keeps no old day in Redis, with room for workers' clocks to differ.
 */
const QUOTA_TTL_S = 2 * 24 * 3600;

/**
 * Counts a job against its repository's daily quota (once per job, however often it
 * runs) and says whether it is within it. A limit of 0 means no limit.
 */
export async function withinDailyQuota(
  redis: Redis,
  keys: QueueKeys,
  repo: string,
  jobId: string,
  limit: number,
  now: number = Date.now(),
): Promise<{ ok: boolean; used: number; key?: string }> {
  if (limit === 0) return { ok: true, used: 0 };
  const key = keys.quota(repo, utcDay(now));
  const [[, added], [, used]] = (await redis
    .multi()
    .sadd(key, jobId)
    .scard(key)
    .expire(key, QUOTA_TTL_S)
    .exec()) as [[unknown, number], [unknown, number], unknown];
  if (used <= limit) return { ok: true, used, key };
  // A refused job takes no place in the count.
  if (added === 1) await redis.srem(key, jobId);
  return { ok: false, used: used - (added === 1 ? 1 : 0), key };
}

/**
 * A repository's daily model-token count in Redis: each call's tokens are added
 * atomically (INCRBY, with the key's expiry in the same transaction), so concurrent
 * workers and jobs never lose a count. A limit of 0 means no limit; usage is still counted.
 */
export function redisTokenLedger(
  redis: Redis,
  keys: QueueKeys,
  repo: string,
  limit: number,
  now: () => number = Date.now,
): TokenLedger {
  return {
    limit,
    async spent() {
      return Number((await redis.get(keys.tokens(repo, utcDay(now())))) ?? 0);
    },
    async add(tokens) {
      const key = keys.tokens(repo, utcDay(now()));
      await redis.multi().incrby(key, tokens).expire(key, QUOTA_TTL_S).exec();
    },
  };
}
