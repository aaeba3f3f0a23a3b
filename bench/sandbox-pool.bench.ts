import { summarize } from "./lib/stats.js";
import { loadConfig } from "../src/config.js";
import { DockerSandbox, dockerClient } from "../src/sandbox/docker.js";
import { SandboxPool } from "../src/sandbox/pool.js";
import type { SandboxOptions } from "../src/sandbox/types.js";
import type { Benchmark, BenchResult } from "./types.js";
import { python } from "../src/lang/python/index.js";

const round = (x: number) => Math.round(x * 10) / 10;

/** Time from asking for a sandbox over the bank example to its first command's result. */
async function firstCommand(get: () => Promise<DockerSandbox>): Promise<number> {
  const started = performance.now();
  const sandbox = await get();
  try {
    const res = await sandbox.exec(["python3", "-c", "pass"]);
    if (res.exitCode !== 0) throw new Error(`first command failed: ${res.stderr}`);
    return performance.now() - started;
  } finally {
    await sandbox.dispose();
  }
}

/**
 * The sandbox pool: time to a first command (`python3 -c pass`) in a sandbox over the
 * bank example, from a warm pool (the pooled container is booted; taking it copies the
 * repository in) against a cold start (create, start, helpers, runner, repository).
 * Samples alternate, and the pool refills between them, as it would between jobs.
 */
const bench: Benchmark = {
  name: "sandbox-pool",
  description: "time to the first command: warm pool vs cold sandbox",
  async run(options): Promise<BenchResult> {
    const n = options.subset === "full" ? 10 : 5;
    const config = loadConfig();
    const sandboxOptions: SandboxOptions = {
      repoDir: "examples/bank-account",
      image: config.sandbox.image,
      limits: config.sandbox.limits,
      support: python.sandbox,
    };
    const docker = dockerClient();
    const pool = new SandboxPool(1, docker);
    const warm: number[] = [];
    const cold: number[] = [];
    try {
      pool.warm(sandboxOptions);
      for (let i = 0; i < n; i++) {
        // Let the pool's replacement finish booting, as between jobs.
        while (pool.idle > 0 && !(await pool.ready())) await new Promise((r) => setTimeout(r, 100));
        warm.push(await firstCommand(() => pool.take(sandboxOptions)));
        cold.push(await firstCommand(() => DockerSandbox.create(sandboxOptions, undefined, docker)));
      }
    } finally {
      await pool.drain();
    }
    const w = summarize(warm);
    const c = summarize(cold);
    return {
      rows: [
        {
          metric: "first command, warm pool, median",
          value: round(w.median),
          unit: "ms",
          target: "≤ 100 ms",
        },
        { metric: "first command, warm pool, p95", value: round(w.p95), unit: "ms" },
        { metric: "first command, cold start, median", value: round(c.median), unit: "ms" },
        { metric: "first command, cold start, p95", value: round(c.p95), unit: "ms" },
      ],
      data: { warm, cold, note: "2 cores shared with other agents' work" },
    };
  },
};

export default bench;
