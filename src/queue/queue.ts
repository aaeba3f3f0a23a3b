import { Queue, type ConnectionOptions } from "bullmq";
import { jobIdFor, jobSchema, type HypofixJob } from "./job.js";

export const QUEUE_NAME = "hypofix-jobs";

/** Retries: a worker crash or an infrastructure hiccup gets 3 tries, 30 s, 60 s apart. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential", delay: 30_000 },
  // Completed ids stay a day so redeliveries within it are recognised as duplicates.
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export interface Enqueued {
  id: string;
  /** True when a job with this id already existed (redelivered webhook). */
  duplicate: boolean;
}

export class JobQueue {
  readonly queue: Queue<HypofixJob>;

  constructor(connection: ConnectionOptions, name: string = QUEUE_NAME) {
    this.queue = new Queue<HypofixJob>(name, { connection, defaultJobOptions: DEFAULT_JOB_OPTIONS });
  }

  /** Validates and adds a job; a job with the same stable id is not added twice. */
  async enqueue(input: unknown): Promise<Enqueued> {
    const job = jobSchema.parse(input);
    const id = jobIdFor(job);
    const existing = await this.queue.getJob(id);
    if (existing) return { id, duplicate: true };
    await this.queue.add(job.kind, job, { jobId: id });
    return { id, duplicate: false };
  }

  close(): Promise<void> {
    return this.queue.close();
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
