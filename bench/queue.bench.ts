import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { JobQueue, connectionFromUrl } from "../src/queue/queue.js";
import { hypofix, type Running } from "../test/helpers/hypofix-process.js";
import { BankApp } from "../test/ops/bank-app.js";
import type { Benchmark, BenchResult } from "./types.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const CLOCK_TICKS = 100;

/** CPU seconds of a process and its waited-for children (git), from /proc. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime, stime, cutime, cstime are fields 14-17 (1-based); after "pid (comm) " they start at index 11.
    return fields.slice(11, 15).reduce((a, b) => a + Number(b), 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy and total CPU time of the whole machine, for the share the run had. */
function machineCpu(): { busy: number; total: number } {
  return cpus().reduce(
    (acc, c) => {
      const total = Object.values(c.times).reduce((a, b) => a + b, 0);
      return { busy: acc.busy + total - c.times.idle, total: acc.total + total };
    },
    { busy: 0, total: 0 },
  );
}

async function waitForOutput(p: Running, text: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!p.output().includes(text)) {
    if (p.child.exitCode !== null || Date.now() > until)
      throw new Error(`worker did not start\n--- output ---\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Round {
  workers: number;
  jobs: number;
  wallS: number;
  jobsPerMin: number;
  workerCpuS: number;
  machineBusyPct: number;
  pullRequests: number;
}

/** `workers` worker processes take `jobs` fix jobs (bank example, one repository each). */
async function round(workers: number, jobs: number): Promise<Round> {
  const app = new BankApp(jobs);
  await app.start();
  const queueName = `hypofix-bench-queue-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  const env = app.env({ REDIS_URL, HYPOFIX_QUEUE_NAME: queueName, HYPOFIX_SANDBOX_POOL_SIZE: "1" });
  const procs = Array.from({ length: workers }, () => hypofix(["worker"], env));
  try {
    await Promise.all(procs.map((p) => waitForOutput(p, "worker waiting for jobs")));
    const cpuBefore = procs.map((p) => cpuSeconds(p.child.pid));
    const machineBefore = machineCpu();
    const started = performance.now();
    for (let i = 0; i < jobs; i++) await queue.enqueue(app.job(i));
    for (;;) {
      const c = await queue.queue.getJobCounts("completed", "failed");
      if ((c.completed ?? 0) + (c.failed ?? 0) >= jobs) break;
      if (procs.every((p) => p.child.exitCode !== null)) throw new Error("every worker exited");
      await new Promise((r) => setTimeout(r, 500));
    }
    const wallS = (performance.now() - started) / 1000;
    const machineAfter = machineCpu();
    const workerCpuS = procs.reduce((n, p, i) => n + cpuSeconds(p.child.pid) - cpuBefore[i]!, 0);
    return {
      workers,
      jobs,
      wallS: Math.round(wallS * 10) / 10,
      jobsPerMin: Math.round((jobs / wallS) * 60 * 10) / 10,
      workerCpuS: Math.round(workerCpuS * 10) / 10,
      machineBusyPct: Math.round(
        ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100,
      ),
      pullRequests: app.pulls,
    };
  } finally {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise((resolve) => {
            if (p.child.exitCode !== null) return resolve(undefined);
            p.child.once("exit", resolve);
            p.child.kill("SIGTERM");
          }),
      ),
    );
    await queue.queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await app.close();
  }
}

/**
 * Queue throughput with 1, 2 and 4 `hypofix worker` processes sharing one Redis
 * queue, each job a real fix of the bank example (offline engine, Docker sandbox,
 * GitHub on loopback) in its own repository (one job per repository at a time).
 * Wall clock from the first enqueue to the last job done; the workers' own CPU
 * seconds (sandboxes run under dockerd, so they show in the machine's busy share).
 */
const bench: Benchmark = {
  name: "queue",
  description: "fix jobs per minute with 1, 2 and 4 worker processes (2-core shared machine)",
  async run(options): Promise<BenchResult> {
    const jobs = options.subset === "full" ? 8 : 4;
    const rounds: Round[] = [];
    for (const workers of [1, 2, 4]) rounds.push(await round(workers, jobs));
    return {
      rows: rounds.flatMap((r) => [
        { metric: `${r.workers} worker(s): jobs/min`, value: r.jobsPerMin, unit: "jobs/min" },
        { metric: `${r.workers} worker(s): wall for ${r.jobs} jobs`, value: r.wallS, unit: "s" },
        { metric: `${r.workers} worker(s): worker CPU`, value: r.workerCpuS, unit: "s" },
        { metric: `${r.workers} worker(s): machine busy`, value: r.machineBusyPct, unit: "%" },
        { metric: `${r.workers} worker(s): pull requests`, value: r.pullRequests, target: `${r.jobs}` },
      ]),
      data: { rounds, cpus: cpus().length, note: "2 cores shared with other agents' work" },
    };
  },
};

export default bench;
