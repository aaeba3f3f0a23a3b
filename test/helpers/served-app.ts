import type { Job } from "bullmq";
import { expect } from "vitest";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { deliveryHeaders } from "../github/payloads.js";
import type { BankApp } from "../ops/bank-app.js";
import { serveOnLoopback, until, type Running } from "./hypofix-process.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * `hypofix serve` (webhook, queue on the real Redis, worker) against a BankApp's loopback
 * GitHub, on a queue of its own: deliveries go in signed, and a job's outcome is read back
 * from the queue once it has finished.
 */
export class ServedApp {
  readonly queueName = `hypofix-e2e-${crypto.randomUUID()}`;
  readonly queue = new JobQueue(connectionFromUrl(REDIS_URL), this.queueName);
  private served: Running | undefined;
  private port = 0;

  constructor(
    private readonly app: BankApp,
    private readonly secret: string,
  ) {}

  async start(): Promise<void> {
    await this.app.start();
    ({ served: this.served, port: this.port } = await serveOnLoopback(
      [],
      this.app.env({ WEBHOOK_SECRET: this.secret, REDIS_URL, HYPOFIX_QUEUE_NAME: this.queueName }),
    ));
  }

  async stop(): Promise<void> {
    this.served?.child.kill("SIGTERM");
    await this.queue.queue.obliterate({ force: true });
    await this.queue.close();
    await this.app.close();
  }

  output(): string {
    return this.served?.output() ?? "";
  }

  /** Delivers `body` as GitHub would deliver `event`; the webhook answers 200. */
  async deliver(event: string, body: string): Promise<void> {
    const res = await fetch(`http://127.0.0.1:${this.port}/api/github/webhooks`, {
      method: "POST",
      headers: deliveryHeaders(event, body, this.secret),
      body,
    });
    expect(res.status).toBe(200);
  }

  /** The return value of the one job `which` picks, once it has finished (it must not have failed). */
  async finished(which: (job: HypofixJob) => boolean): Promise<unknown> {
    const find = async (): Promise<Job<HypofixJob> | undefined> =>
      (await this.queue.queue.getJobs(["waiting", "active", "delayed", "completed", "failed"])).find((j) =>
        which(j.data),
      );
    await until(
      "the job to finish",
      async () => {
        const job = await find();
        return job !== undefined && ((await job.isCompleted()) || (await job.isFailed()));
      },
      240_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- hypofix serve ---\n${this.output()}`);
    });
    const job = (await find())!;
    expect(job.failedReason, this.output()).toBeUndefined();
    return job.returnvalue;
  }
}
