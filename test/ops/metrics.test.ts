import { randomUUID } from "node:crypto";
import { QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { hypofix, waitForHttp } from "../helpers/hypofix-process.js";
import { BankApp } from "./bank-app.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PORT = 7420;
const base = `http://127.0.0.1:${PORT}`;

/** One sample of a Prometheus text exposition, e.g. sample(text, 'hypofix_jobs_total{kind="ci-failure",outcome="fixed"}'). */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * `/metrics` of `hypofix serve` with its in-process worker and sandbox pool: the
 * counters move after a real job (bank example, real Docker, GitHub on loopback),
 * and a job that fails is counted as failed.
 */
describe("metrics after a job (serve + worker subprocess, real Redis and Docker)", () => {
  const queueName = `hypofix-ops-metrics-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  const app = new BankApp();
  let served: ReturnType<typeof hypofix>;

  beforeAll(async () => {
    await app.start();
    served = hypofix(
      ["serve"],
      app.env({
        WEBHOOK_SECRET: "s",
        REDIS_URL,
        HYPOFIX_QUEUE_NAME: queueName,
        HOST: "127.0.0.1",
        PORT: String(PORT),
        HYPOFIX_SANDBOX_POOL_SIZE: "1",
      }),
    );
    await waitForHttp(`${base}/healthz`, served);
  }, 120_000);
  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await app.close();
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  const metrics = async () => (await fetch(`${base}/metrics`)).text();
  const run = async (input: Record<string, unknown>) => {
    const events = new QueueEvents(queueName, { connection: connectionFromUrl(REDIS_URL) });
    try {
      const { id } = await queue.enqueue(input);
      const job = (await queue.queue.getJob(id))!;
      return await job.waitUntilFinished(events, 240_000).catch((err: unknown) => String(err));
    } finally {
      await events.close();
    }
  };

  it("counts the job by kind and outcome, its phases, its sandbox and environment", async () => {
    const before = await metrics();
    expect(sample(before, 'hypofix_jobs_total{kind="ci-failure",outcome="fixed"}')).toBe(0);
    expect(before).toContain('hypofix_queue_jobs{state="waiting"}');

    const summary = await run(app.job());
    expect(summary, served.output()).toMatchObject({ status: "fixed" });

    const after = await metrics();
    expect(sample(after, 'hypofix_jobs_total{kind="ci-failure",outcome="fixed"}')).toBe(1);
    expect(sample(after, 'hypofix_job_duration_seconds_count{kind="ci-failure"}')).toBe(1);
    for (const phase of ["environment", "reproduce", "debug", "validate"])
      expect(sample(after, `hypofix_phase_duration_seconds_count{phase="${phase}"}`), phase).toBe(1);
    // The base image needs no build: a cache miss; the run's first sandbox came from the pool.
    expect(sample(after, 'hypofix_environment_total{cache="miss"}')).toBe(1);
    expect(sample(after, 'hypofix_sandbox_starts_total{source="pool"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, "hypofix_sandbox_runs_total")).toBeGreaterThan(0);
    // Offline engine: no model calls.
    expect(sample(after, "hypofix_llm_calls_total")).toBe(0);
    // No repository name in any label: /metrics is public.
    expect(after).not.toContain("octo");
  }, 300_000);

  it("counts an attempt that throws as failed", async () => {
    const failedNow = async () =>
      sample(await metrics(), 'hypofix_jobs_total{kind="ci-failure",outcome="failed"}');
    expect(await failedNow()).toBe(0);
    // GitHub knows no such repository: the attempt throws (BullMQ retries it later; the first is enough here).
    await queue.enqueue({ ...app.job(), repo: { owner: "octo", name: "missing" } });
    const until = Date.now() + 90_000;
    while ((await failedNow()) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
    expect(await failedNow()).toBe(1);
    expect(sample(await metrics(), 'hypofix_jobs_total{kind="ci-failure",outcome="fixed"}')).toBe(1);
  }, 120_000);
});
