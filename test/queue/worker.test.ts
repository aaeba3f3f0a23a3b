import { randomUUID } from "node:crypto";
import { QueueEvents } from "bullmq";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { JobStopped, startWorker, type HypofixWorker, type JobProcessor } from "../../src/queue/worker.js";

const connection = connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const log = pino({ level: "silent" });

const jobFor = (repo: string, sha = randomUUID().replace(/-/g, "").padEnd(40, "0")): HypofixJob => ({
  kind: "ci-failure",
  trigger: "ci",
  installationId: 1,
  repo: { owner: "octo", name: repo },
  headSha: sha,
  headBranch: "main",
});

const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason as Error));
  });

/** The worker against real Redis: each test has a queue of its own. */
describe("worker (real Redis)", () => {
  let queue: JobQueue;
  let events: QueueEvents;
  let worker: HypofixWorker | undefined;
  const finals: string[] = [];

  const start = async (
    processor: JobProcessor,
    extra: { concurrency?: number; deadlineMs?: number; daily?: number } = {},
  ) => {
    const name = `hypofix-test-${randomUUID()}`;
    queue = new JobQueue(connection, name);
    events = new QueueEvents(name, { connection });
    await events.waitUntilReady();
    worker = startWorker({
      connection,
      log,
      queueName: name,
      processor,
      concurrency: extra.concurrency ?? 1,
      ...(extra.deadlineMs ? { deadlineMs: extra.deadlineMs } : {}),
      ...(extra.daily ? { dailyJobsPerRepo: extra.daily } : {}),
      onFinalFailure: async (job, err) => {
        finals.push(`${job.repo.name}: ${err.message}`);
      },
    });
  };
  const settle = async (id: string) => {
    const job = (await queue.queue.getJob(id))!;
    return job.waitUntilFinished(events, 30_000);
  };

  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await events.close();
    await queue.queue.obliterate({ force: true });
    await queue.close();
    finals.length = 0;
  });

  it("fails a UserError once, unrecoverably, with its one line, and calls the final-failure hook once", async () => {
    let runs = 0;
    await start(async () => {
      runs += 1;
      throw new UserError("the CI log names no test the sandbox can find", "set test_command");
    });
    const { id } = await queue.enqueue(jobFor("user-error"));
    await expect(settle(id)).rejects.toThrow(
      "the CI log names no test the sandbox can find — set test_command",
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toBe(1);
    expect(finals).toEqual(["user-error: the CI log names no test the sandbox can find — set test_command"]);
  });

  it("retries other errors and calls the final-failure hook only after the last attempt", async () => {
    let runs = 0;
    await start(async () => {
      runs += 1;
      throw new Error(`infrastructure hiccup ${runs}`);
    });
    const added = await queue.queue.add("ci-failure", jobFor("flaky-infra"), {
      attempts: 2,
      backoff: { type: "fixed", delay: 10 },
    });
    await expect(settle(added.id!)).rejects.toThrow("infrastructure hiccup 2");
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toBe(2);
    expect(finals).toEqual(["flaky-infra: infrastructure hiccup 2"]);
  });

  it("aborts a running job's signal when its head moves on, and completes it as cancelled", async () => {
    let seen: unknown;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    await start(async (_job, context) => {
      started();
      return untilAborted(context.signal).catch((err: unknown) => {
        seen = err;
        throw err;
      });
    });
    const job = jobFor("moving");
    const { id } = await queue.enqueue(job);
    await running;
    const cancelled = await queue.cancel((j) => j.headSha === job.headSha, "its head moved on");
    expect(cancelled).toEqual([id]);
    expect(await settle(id)).toEqual({ status: "cancelled", reason: "cancelled: its head moved on" });
    expect(seen).toBeInstanceOf(JobStopped);
    expect(finals).toEqual([]);
  });

  it("runs one job per repository at a time, and jobs of different repositories together", async () => {
    const active = new Set<string>();
    const overlaps: string[] = [];
    await start(
      async (job) => {
        if (active.size > 0) overlaps.push([...active, job.repo.name].join("+"));
        active.add(job.repo.name + job.headSha);
        await new Promise((r) => setTimeout(r, 700));
        active.delete(job.repo.name + job.headSha);
        return { status: "no-fix" };
      },
      { concurrency: 3 },
    );
    const ids = await Promise.all([jobFor("one"), jobFor("one"), jobFor("two")].map((j) => queue.enqueue(j)));
    await Promise.all(ids.map(({ id }) => settle(id)));
    // "two" overlapped with an "one" job; the two "one" jobs never overlapped each other.
    expect(overlaps.length).toBeGreaterThan(0);
    expect(overlaps.every((o) => o.split("+").filter((r) => r.startsWith("one")).length <= 1)).toBe(true);
  });

  it("refuses jobs past a repository's daily quota, not other repositories' jobs", async () => {
    await start(async () => ({ status: "no-fix" }), { daily: 1 });
    const first = await queue.enqueue(jobFor("busy"));
    expect(await settle(first.id)).toEqual({ status: "no-fix" });
    const second = await queue.enqueue(jobFor("busy"));
    await expect(settle(second.id)).rejects.toThrow("octo/busy reached its daily quota of 1 jobs");
    const other = await queue.enqueue(jobFor("quiet"));
    expect(await settle(other.id)).toEqual({ status: "no-fix" });
  });

  it("does not count commands refused to their commenter against the quota", async () => {
    await start(
      async (job) => (job.requestedBy === "reader" ? { status: "refused" } : { status: "no-fix" }),
      {
        daily: 1,
      },
    );
    for (const commentId of [1, 2, 3]) {
      const refused = await queue.enqueue({ ...jobFor("spammed"), requestedBy: "reader", commentId });
      expect(await settle(refused.id)).toEqual({ status: "refused" });
    }
    const writer = await queue.enqueue(jobFor("spammed"));
    expect(await settle(writer.id)).toEqual({ status: "no-fix" });
  });

  it("returns the outcome an earlier run recorded (its worker lost the lock) instead of running again", async () => {
    let runs = 0;
    await start(async () => {
      runs += 1;
      return { status: "fixed", pullRequest: 99 };
    });
    const added = await queue.queue.add("ci-failure", jobFor("lock-lost"), {
      jobId: "lock-lost-1",
      delay: 500,
    });
    await queue.redis.set(
      queue.keys.outcome(added.id!),
      JSON.stringify({ state: "completed", summary: { status: "fixed", pullRequest: 17 } }),
    );
    expect(await settle(added.id!)).toEqual({ status: "fixed", pullRequest: 17 });
    expect(runs).toBe(0);
  });

  // Jobflow's processor returns "cancelled" once its signal aborts; a bare one throws the abort reason.
  const stopStyles: [string, (signal: AbortSignal) => Promise<Record<string, unknown>>][] = [
    ["throws", (signal) => untilAborted(signal)],
    ["returns cancelled", (signal) => untilAborted(signal).catch(() => ({ status: "cancelled" }))],
  ];

  for (const [style, stop] of stopStyles) {
    it(`puts a running job back in the queue on shutdown, without spending an attempt (processor ${style})`, async () => {
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      await start(async (_job, context) => {
        started();
        return stop(context.signal);
      });
      const { id } = await queue.enqueue(jobFor("shutdown"));
      await running;
      await worker!.close();
      worker = undefined;
      const job = (await queue.queue.getJob(id))!;
      expect(await job.getState()).toBe("waiting");
      expect(job.attemptsMade).toBe(0);
    });

    it(`fails a job past its deadline for good (processor ${style})`, async () => {
      await start(async (_job, context) => stop(context.signal), { deadlineMs: 300 });
      const { id } = await queue.enqueue(jobFor("late"));
      await expect(settle(id)).rejects.toThrow("deadline");
      await new Promise((r) => setTimeout(r, 200));
      expect(finals).toEqual(["late: the job's deadline (0 s) passed"]);
    });
  }

  it("keeps the result of a job that finished its work although its signal aborted late", async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    await start(async (_job, context) => {
      started();
      await new Promise((r) => context.signal.addEventListener("abort", r));
      return { status: "fixed", pullRequest: 5 };
    });
    const job = jobFor("late-cancel");
    const { id } = await queue.enqueue(job);
    await running;
    await queue.cancel((j) => j.headSha === job.headSha, "its head moved on");
    expect(await settle(id)).toEqual({ status: "fixed", pullRequest: 5 });
  });
});
