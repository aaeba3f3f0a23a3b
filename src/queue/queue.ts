import { randomUUID } from "node:crypto";
import { Queue, type ConnectionOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import { jobIdFor, jobSchema, type HypofixJob } from "./job.js";
import { queueKeys, type QueueKeys } from "./keys.js";
import { logRedisState, redisClient } from "./redis.js";

export const QUEUE_NAME = "hypofix-jobs";

/** How long an event's identity is remembered: a redelivery within it, even after the job ended, adds nothing. */
export const DEDUPLICATION_TTL_MS = 24 * 3600_000;

/** Retries: a worker crash or an infrastructure hiccup gets 3 tries, 30 s, 60 s apart. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential", delay: 30_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** States in which a job has not ended: it may still be cancelled. */
const UNFINISHED = ["waiting", "delayed", "prioritized", "active"] as const;

export interface Enqueued {
  id: string;
  /** True when the event was already queued (a redelivered webhook): no new job. */
  duplicate: boolean;
}

/** What a worker is told when a job should stop: published on the cancel channel. */
export interface CancelMessage {
  jobId: string;
  reason: string;
}

export class JobQueue {
  readonly queue: Queue<HypofixJob>;
  readonly keys: QueueKeys;
  /** For Hypofix's own keys beside the queue (cancellations) and the Redis state log. */
  readonly redis: Redis;

  constructor(connection: ConnectionOptions, name: string = QUEUE_NAME, log?: Logger) {
    this.queue = new Queue<HypofixJob>(name, { connection, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    this.keys = queueKeys(name);
    this.redis = redisClient(connection);
    // Without a listener a connection error is thrown (and its stack printed); the state log says what happened.
    this.queue.on("error", () => undefined);
    this.redis.on("error", () => undefined);
    if (log) logRedisState(this.redis, log, "queue");
  }

  /**
   * Validates and adds a job. BullMQ's deduplication keys it by the event's identity
   * (jobIdFor: kind, repo, sha, tests, and the comment for a command), so a redelivered
   * webhook adds nothing, atomically, while every new `/fix` comment is a new run.
   */
  async enqueue(input: unknown): Promise<Enqueued> {
    const job = jobSchema.parse(input);
    const identity = jobIdFor(job);
    const fresh = `${identity}-${randomUUID().slice(0, 8)}`;
    const added = await this.queue.add(job.kind, job, {
      jobId: fresh,
      deduplication: { id: identity, ttl: DEDUPLICATION_TTL_MS },
    });
    const id = added.id ?? fresh;
    return { id, duplicate: id !== fresh };
  }

  /**
   * Cancels every job that has not ended and that `stale` selects: a queued one is
   * removed, a running one is told through the cancel channel (its worker aborts the
   * job's signal). A marker stays so a worker taking the job in between sees it too.
   */
  async cancel(stale: (job: HypofixJob) => boolean, reason: string): Promise<string[]> {
    const client = this.redis;
    const cancelled: string[] = [];
    for (const job of await this.queue.getJobs([...UNFINISHED])) {
      const data = jobSchema.safeParse(job.data);
      if (!job.id || !data.success || !stale(data.data)) continue;
      await client.set(this.keys.cancelled(job.id), reason, "PX", DEDUPLICATION_TTL_MS);
      if ((await job.getState()) !== "active") {
        // A job taken by a worker meanwhile is locked and cannot be removed: the message below reaches it.
        await job.remove().catch(() => undefined);
      }
      const message: CancelMessage = { jobId: job.id, reason };
      await client.publish(this.keys.cancelChannel, JSON.stringify(message));
      cancelled.push(job.id);
    }
    return cancelled;
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}

/** ioredis-style connection options from a redis:// URL. */
export function connectionFromUrl(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
    // BullMQ workers block on Redis; ioredis must not give up on them.
    maxRetriesPerRequest: null,
  };
}
