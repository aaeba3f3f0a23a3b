import type { ConnectionOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { UserError } from "../errors.js";
import type { Logger } from "../log.js";

/** Fails fast with a clear message when Redis is not there (BullMQ itself would wait forever). */
export async function assertRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    const safeUrl = url.replace(/\/\/[^@/]*@/, "//***@");
    throw new UserError(
      `Redis is not reachable at ${safeUrl} (${err instanceof Error ? err.message : String(err)})`,
      "start redis-server or set REDIS_URL",
      { cause: err },
    );
  } finally {
    client.disconnect();
  }
}

/** The ioredis events that are states of a connection. */
const STATES = ["connect", "ready", "close", "reconnecting", "end"] as const;

interface RedisEvents {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * One structured log line per state change of a Redis connection (connect, ready,
 * close, reconnecting, end), with the last error's message: no stack traces, and
 * no line per retry while Redis stays down.
 */
export function logRedisState(client: RedisEvents, log: Logger, role: string): void {
  let last: string | undefined;
  let lastError: string | undefined;
  // While Redis is down ioredis cycles close → reconnecting per retry: each is logged once per outage.
  const seenWhileDown = new Set<string>();
  const change = (state: string, extra: Record<string, unknown> = {}) => {
    const healthy = state === "connect" || state === "ready";
    if (state === last || (!healthy && seenWhileDown.has(state))) return;
    last = state;
    if (healthy) {
      seenWhileDown.clear();
      lastError = undefined;
      log.info({ redis: role, state }, "redis state");
      return;
    }
    seenWhileDown.add(state);
    log.warn({ redis: role, state, ...extra, ...(lastError ? { err: lastError } : {}) }, "redis state");
  };
  for (const state of STATES) {
    client.on(state, (delay?: unknown) =>
      change(state, state === "reconnecting" && typeof delay === "number" ? { retryInMs: delay } : {}),
    );
  }
  client.on("error", (err: unknown) => {
    lastError = err instanceof Error ? err.message : String(err);
  });
}

/** A plain ioredis client for the options BullMQ was given (Hypofix's own keys beside the queue). */
export function redisClient(connection: ConnectionOptions): Redis {
  // connectionFromUrl builds ioredis options; BullMQ's union also admits client instances, which we never pass.
  return new Redis({ ...(connection as RedisOptions), maxRetriesPerRequest: null });
}
