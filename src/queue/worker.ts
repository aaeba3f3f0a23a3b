import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from "bullmq";
import type { Logger } from "pino";
import { jobSchema, type HypofixJob } from "./job.js";
import { QUEUE_NAME } from "./queue.js";

export interface JobContext {
  jobId: string;
  attempt: number;
  log: Logger;
  /** Aborted when the job should stop early (its head moved on, its deadline passed, shutdown); check between phases. */
  signal: AbortSignal;
}

/** What the worker does with one validated job; returns a summary stored with the job. */
export type JobProcessor = (job: HypofixJob, context: JobContext) => Promise<Record<string, unknown>>;

export interface WorkerOptions {
  connection: ConnectionOptions;
  processor: JobProcessor;
  log: Logger;
  concurrency?: number;
  queueName?: string;
  /** Called once when a job fails for good (no attempt left, or unrecoverable): the place to tell the user. */
  onFinalFailure?: (job: HypofixJob, error: Error, log: Logger) => Promise<void>;
}

/**
 * Starts a BullMQ worker. Data that fails validation is failed without retries
 * (retrying cannot fix it); other errors are retried with the queue's backoff.
 */
export function startWorker(options: WorkerOptions): Worker<HypofixJob> {
  const { log } = options;
  const worker = new Worker<HypofixJob>(
    options.queueName ?? QUEUE_NAME,
    async (job: Job<HypofixJob>) => {
      const parsed = jobSchema.safeParse(job.data);
      if (!parsed.success) {
        const why = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
        throw new UnrecoverableError(`invalid job data: ${why}`);
      }
      const jobLog = log.child({ jobId: job.id, kind: parsed.data.kind, repo: parsed.data.repo });
      jobLog.info({ attempt: job.attemptsMade + 1 }, "job started");
      const summary = await options.processor(parsed.data, {
        jobId: job.id ?? "",
        attempt: job.attemptsMade + 1,
        log: jobLog,
        signal: new AbortController().signal,
      });
      jobLog.info(summary, "job finished");
      return summary;
    },
    { connection: options.connection, concurrency: options.concurrency ?? 1 },
  );
  worker.on("failed", (job, err) => {
    log.error({ jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, "job failed");
    if (!job || !options.onFinalFailure) return;
    const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const parsed = jobSchema.safeParse(job.data);
    if (!final || !parsed.success) return;
    options.onFinalFailure(parsed.data, err, log.child({ jobId: job.id })).catch((hookErr: unknown) => {
      log.error({ jobId: job.id, err: String(hookErr) }, "final-failure hook failed");
    });
  });
  worker.on("error", (err) => log.error({ err: err.message }, "worker error"));
  return worker;
}

/** Closes the worker on SIGINT/SIGTERM, letting the running job finish first. */
export function closeOnSignals(worker: Worker, log: Logger): void {
  const stop = (signal: string) => {
    log.info({ signal }, "shutting down worker; waiting for the running job");
    worker
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err: String(err) }, "worker close failed");
        process.exit(1);
      });
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
