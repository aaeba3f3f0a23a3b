import { randomUUID } from "node:crypto";
import type { Job } from "bullmq";
import { QueueEvents } from "bullmq";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobIdFor, type HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { startWorker } from "../../src/queue/worker.js";

// Real Redis: the test command starts it on 127.0.0.1:6379 when it is not running.
const connection = connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const log = pino({ level: "silent" });

const job: HypofixJob = {
  kind: "ci-failure",
  trigger: "ci",
  installationId: 42,
  repo: { owner: "Octo", name: "calc" },
  headSha: "a".repeat(40),
  checkRunId: 7,
};

describe("JobQueue (real Redis)", () => {
  const name = `hypofix-test-${randomUUID()}`;
  let queue: JobQueue;

  beforeAll(() => {
    queue = new JobQueue(connection, name);
  });
  afterAll(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  it("adds a redelivered webhook's job only once", async () => {
    const first = await queue.enqueue(job);
    const again = await queue.enqueue({ ...job, checkRunId: 8, workflowRunId: 9 });
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ id: first.id, duplicate: true });
    expect(await queue.queue.getJobCounts("waiting")).toEqual({ waiting: 1 });
  });

  it("gives different ids to different shas, repos and kinds", () => {
    const ids = new Set([
      jobIdFor(job),
      jobIdFor({ ...job, headSha: "b".repeat(40) }),
      jobIdFor({ ...job, repo: { owner: "octo", name: "other" } }),
      jobIdFor({ ...job, kind: "explain", prNumber: 3 }),
    ]);
    expect(ids.size).toBe(4);
    expect(jobIdFor({ ...job, repo: { owner: "octo", name: "CALC" } })).toBe(jobIdFor(job));
  });

  it("rejects a malformed job before it reaches Redis", async () => {
    await expect(queue.enqueue({ ...job, headSha: "main" })).rejects.toThrow(/headSha/);
    await expect(queue.enqueue({ kind: "deploy" })).rejects.toThrow();
  });
});

describe("worker (real Redis)", () => {
  it("processes a valid job and fails invalid data without retrying", async () => {
    const name = `hypofix-test-${randomUUID()}`;
    const queue = new JobQueue(connection, name);
    const events = new QueueEvents(name, { connection });
    await events.waitUntilReady();
    const seen: HypofixJob[] = [];
    const worker = startWorker({
      connection,
      log,
      queueName: name,
      processor: async (data) => {
        seen.push(data);
        return { status: "no-fix" };
      },
    });
    try {
      const { id } = await queue.enqueue(job);
      const done = await (await queue.queue.getJob(id))!.waitUntilFinished(events, 20_000);
      expect(done).toEqual({ status: "no-fix" });
      expect(seen).toEqual([job]);

      // Data written to Redis by something else (an old version, a hand edit) is validated again.
      const bad: Job = await queue.queue.add("ci-failure", { ...job, installationId: -1 } as HypofixJob, {
        attempts: 3,
      });
      await expect(bad.waitUntilFinished(events, 20_000)).rejects.toThrow(/invalid job data: installationId/);
      const failed = await queue.queue.getJob(bad.id!);
      expect(failed?.attemptsMade).toBe(1);
      expect(seen).toHaveLength(1);
    } finally {
      await worker.close();
      await events.close();
      await queue.queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
