import {
  DelayedError,
  UnrecoverableError,
  WaitingError,
  Worker,
  type ConnectionOptions,
  type Job,
} from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { UserError } from "../errors.js";
import { jobSchema, type HypofixJob } from "./job.js";
import { queueKeys, type QueueKeys } from "./keys.js";
import { QUEUE_NAME, type CancelMessage } from "./queue.js";
import { logRedisState, redisClient } from "./redis.js";
import { acquireRepoLock, withinDailyQuota } from "./repo-limits.js";

export interface JobContext {
  jobId: string;
  attempt: number;
  log: Logger;
  /** Aborted when the job should stop early (its head moved on, its deadline passed, shutdown); check between phases. */
  signal: AbortSignal;
}

/** What the worker does with one validated job; returns a summary stored with the job. */
export type JobProcessor = (job: HypofixJob, context: JobContext) => Promise<Record<string, unknown>>;

/**
 * Recovery in bounded time. A worker renews its job's lock every lockDuration/2;
 * when it dies, the lock expires within LOCK_DURATION_MS and the next stalled check
 * (every STALLED_INTERVAL_MS, by any live worker) puts the job back: a dead worker's
 * job restarts within about 15 + 10 = 25 s. A job may stall twice (two crashes, or
 * two Redis outages longer than the lock) before it fails for good.
 */
export const RECOVERY = { lockDurationMs: 15_000, stalledIntervalMs: 10_000, maxStalledCount: 2 } as const;

/** A job waiting for its repository's running job tries again this much later. */
const REPO_BUSY_RETRY_MS = 5_000;

/** Why a job's signal was aborted: `signal.reason` is one of these. */
export class JobStopped extends Error {
  constructor(
    readonly why: "cancelled" | "deadline" | "shutdown",
    message: string,
  ) {
    super(message);
    this.name = "JobStopped";
  }
}

export interface WorkerOptions {
  connection: ConnectionOptions;
  processor: JobProcessor;
  log: Logger;
  concurrency?: number;
  queueName?: string;
  /** Called once when a job fails for good (no attempt left, or unrecoverable): the place to tell the user. */
  onFinalFailure?: (job: HypofixJob, error: Error, log: Logger) => Promise<void>;
  /** A job running longer is stopped and fails for good. */
  deadlineMs?: number;
  /** Jobs one repository may start per UTC day (0: no limit). */
  dailyJobsPerRepo?: number;
}

/** What a job ended with, recorded once in Redis whichever run or worker gets there first. */
type Outcome = { state: "completed"; summary: Record<string, unknown> } | { state: "failed"; reason: string };

/** A running Hypofix worker: BullMQ's, plus what it holds beside it. */
export interface HypofixWorker {
  worker: Worker<HypofixJob>;
  /** Aborts every running job's signal (they go back to the queue) and closes the worker once they return. */
  close(): Promise<void>;
}

/**
 * Starts a BullMQ worker. Data that fails validation and user errors fail without
 * retries (retrying cannot fix them); other errors are retried with the queue's
 * backoff. Each job gets a signal that aborts when it is cancelled (its head moved
 * on), when its deadline passes, or on shutdown; one job per repository runs at a
 * time; a job's outcome is recorded once even when its lock was lost and it ran again.
 */
export function startWorker(options: WorkerOptions): HypofixWorker {
  const { log } = options;
  const queueName = options.queueName ?? QUEUE_NAME;
  const keys = queueKeys(queueName);
  const redis = redisClient(options.connection);
  logRedisState(redis, log, "worker");
  const running = new Map<string, AbortController>();

  const subscriber = redis.duplicate();
  subscriber.on("error", () => undefined);
  void subscriber.subscribe(keys.cancelChannel).catch(() => undefined);
  subscriber.on("message", (_channel: string, text: string) => {
    const message = parseCancel(text);
    const controller = message && running.get(message.jobId);
    if (message && controller) controller.abort(new JobStopped("cancelled", `cancelled: ${message.reason}`));
  });

  const processJob = async (job: Job<HypofixJob>, token?: string): Promise<Record<string, unknown>> => {
    const parsed = jobSchema.safeParse(job.data);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new UnrecoverableError(`invalid job data: ${why}`);
    }
    const data = parsed.data;
    const jobId = job.id ?? "";
    const jobLog = log.child({ jobId, kind: data.kind, repo: data.repo });

    const recorded = await readOutcome(redis, keys, jobId);
    if (recorded?.state === "completed") {
      jobLog.info("outcome already recorded by an earlier run; not running again");
      return recorded.summary;
    }
    const cancelled = await redis.get(keys.cancelled(jobId));
    if (cancelled !== null)
      return finish(redis, keys, jobId, { status: "cancelled", reason: cancelled }, jobLog);

    const repo = `${data.repo.owner}/${data.repo.name}`;
    const lock = await acquireRepoLock(redis, keys, repo, jobId, RECOVERY.lockDurationMs);
    if (!lock) {
      jobLog.debug("another job of this repository is running; waiting");
      await job.moveToDelayed(Date.now() + REPO_BUSY_RETRY_MS, token);
      throw new DelayedError();
    }
    const controller = new AbortController();
    running.set(jobId, controller);
    const deadlineMs = options.deadlineMs ?? 30 * 60_000;
    const deadline = setTimeout(
      () =>
        controller.abort(
          new JobStopped("deadline", `the job's deadline (${Math.round(deadlineMs / 1000)} s) passed`),
        ),
      deadlineMs,
    );
    try {
      const quota = await withinDailyQuota(redis, keys, repo, jobId, options.dailyJobsPerRepo ?? 0);
      if (!quota.ok) {
        throw new UnrecoverableError(
          `${repo} reached its daily quota of ${options.dailyJobsPerRepo} jobs; comment /fix tomorrow to run it`,
        );
      }
      jobLog.info({ attempt: job.attemptsMade + 1 }, "job started");
      let summary: Record<string, unknown>;
      let interrupted = false;
      try {
        summary = await options.processor(data, {
          jobId,
          attempt: job.attemptsMade + 1,
          log: jobLog,
          signal: controller.signal,
        });
      } catch (err) {
        if (!controller.signal.aborted)
          throw err instanceof UserError ? new UnrecoverableError(err.oneLine()) : err;
        interrupted = true;
        summary = { status: "cancelled" };
      }
      // A processor stopped by its signal throws or returns "cancelled"; why it was stopped decides the job's end.
      // One that finished its work anyway keeps its result.
      interrupted ||= controller.signal.aborted && summary.status === "cancelled";
      const stopped = controller.signal.reason as unknown;
      if (interrupted && stopped instanceof JobStopped) {
        if (stopped.why === "shutdown") {
          // Back to the queue without spending an attempt: another worker takes it.
          await job.moveToWait(token);
          throw new WaitingError();
        }
        if (stopped.why === "deadline") throw new UnrecoverableError(stopped.message);
        summary = { ...summary, status: "cancelled", reason: stopped.message };
      }
      // A command refused to its commenter (no write access) takes no place in the quota, so readers cannot use it up.
      if (summary.status === "refused" && quota.key) await redis.srem(quota.key, jobId);
      jobLog.info(summary, "job finished");
      return await finish(redis, keys, jobId, summary, jobLog);
    } finally {
      clearTimeout(deadline);
      running.delete(jobId);
      await lock.release().catch(() => undefined);
    }
  };

  const worker = new Worker<HypofixJob>(queueName, processJob, {
    connection: options.connection,
    concurrency: options.concurrency ?? 1,
    lockDuration: RECOVERY.lockDurationMs,
    stalledInterval: RECOVERY.stalledIntervalMs,
    maxStalledCount: RECOVERY.maxStalledCount,
  });

  worker.on("failed", (job, err) => {
    log.error({ jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, "job failed");
    if (!job?.id) return;
    void finalFailure(job, err).catch((hookErr: unknown) => {
      log.error({ jobId: job.id, err: String(hookErr) }, "final-failure hook failed");
    });
  });
  worker.on("error", (err) => log.error({ err: err.message }, "worker error"));

  /** The hook runs once per job: only when the job is failed for good, and only for the first to record it. */
  async function finalFailure(job: Job<HypofixJob>, err: Error): Promise<void> {
    if ((await job.getState()) !== "failed") return;
    const outcome: Outcome = { state: "failed", reason: err.message };
    if (!(await recordOutcome(redis, keys, job.id!, outcome))) return;
    const parsed = jobSchema.safeParse(job.data);
    if (parsed.success && options.onFinalFailure)
      await options.onFinalFailure(parsed.data, err, log.child({ jobId: job.id }));
  }

  return {
    worker,
    async close() {
      for (const controller of running.values())
        controller.abort(new JobStopped("shutdown", "the worker is shutting down"));
      await worker.close();
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}

function parseCancel(text: string): CancelMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<CancelMessage>;
    return typeof value.jobId === "string" && typeof value.reason === "string"
      ? { jobId: value.jobId, reason: value.reason }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Outcomes are kept as long as failed jobs are (a week). */
const OUTCOME_TTL_S = 7 * 24 * 3600;

async function recordOutcome(
  redis: Redis,
  keys: QueueKeys,
  jobId: string,
  outcome: Outcome,
): Promise<boolean> {
  return (await redis.set(keys.outcome(jobId), JSON.stringify(outcome), "EX", OUTCOME_TTL_S, "NX")) === "OK";
}

async function readOutcome(redis: Redis, keys: QueueKeys, jobId: string): Promise<Outcome | undefined> {
  const text = await redis.get(keys.outcome(jobId));
  return text === null ? undefined : (JSON.parse(text) as Outcome);
}

/** Records a completed job's summary; when an earlier run already did, its summary is the job's. */
async function finish(
  redis: Redis,
  keys: QueueKeys,
  jobId: string,
  summary: Record<string, unknown>,
  log: Logger,
): Promise<Record<string, unknown>> {
  if (await recordOutcome(redis, keys, jobId, { state: "completed", summary })) return summary;
  const earlier = await readOutcome(redis, keys, jobId);
  log.warn({ earlier }, "another run of this job recorded its outcome first");
  return earlier?.state === "completed" ? earlier.summary : summary;
}

/**
 * Closes the worker on SIGINT/SIGTERM: running jobs stop at their next check and go
 * back to the queue; then `afterClose` (e.g. draining the sandbox pool) finishes
 * before the process exits, so nothing of this worker outlives it.
 */
export function closeOnSignals(
  worker: HypofixWorker,
  log: Logger,
  afterClose: () => Promise<unknown> = async () => undefined,
): void {
  const stop = (signal: string) => {
    log.info({ signal }, "shutting down worker; running jobs go back to the queue");
    worker
      .close()
      .then(afterClose)
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err: String(err) }, "worker close failed");
        process.exit(1);
      });
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
