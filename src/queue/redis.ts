import { Redis } from "ioredis";
import { UserError } from "../errors.js";

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
