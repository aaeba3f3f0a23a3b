import { Redis } from "ioredis";

/**
 * Answers "is Redis there?" through a connection of its own that fails commands
 * at once while disconnected (the queue's connection waits forever, by design).
 * Silent: the queue's connection logs Redis state changes.
 */
export class RedisProbe {
  private readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      // Keep trying, at most every 2 s, so readiness comes back with Redis.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.client.on("error", () => undefined);
  }
  /** True when Redis answers a PING within `timeoutMs`. */
  async reachable(timeoutMs = 1000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.client.ping().then((r) => r === "PONG"),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.client.disconnect();
  }
}
