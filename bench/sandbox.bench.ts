import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "../src/config.js";
import { DockerSandbox, dockerClient, runExec } from "../src/sandbox/docker.js";
import { createSandbox, type Sandbox } from "../src/sandbox/index.js";
import { summarize, type Summary } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";
import { python } from "../src/lang/python/index.js";

const run = promisify(execFile);

/** A summary in whole tenths of a millisecond, for the table and the JSON. */
function stats(samples: number[]): Summary {
  const round = (x: number) => Math.round(x * 10) / 10;
  const s = summarize(samples);
  return {
    n: s.n,
    min: round(s.min),
    median: round(s.median),
    mean: round(s.mean),
    p95: round(s.p95),
    max: round(s.max),
  };
}

/**
 * Times each variant `n` times, interleaved (round i runs every variant once),
 * so on a shared machine every variant sees the same load. One untimed warm-up round.
 */
async function timeInterleaved(n: number, variants: (() => Promise<void>)[]): Promise<number[][]> {
  const samples = variants.map((): number[] => []);
  for (let round = -1; round < n; round++) {
    for (const [i, once] of variants.entries()) {
      const started = performance.now();
      await once();
      if (round >= 0) samples[i]?.push(performance.now() - started);
    }
  }
  return samples;
}

async function execOk(sb: Sandbox, argv: string[], timeoutMs: number): Promise<void> {
  const res = await sb.exec(argv, { timeoutMs });
  if (res.exitCode !== 0) throw new Error(`${argv.join(" ")} failed in the sandbox: ${res.stderr}`);
}

const sandboxBench: Benchmark = {
  name: "sandbox",
  description:
    "python3 -c pass bare on the host vs exec in a warm docker sandbox (and one docker exec per command); container create+start",
  // One long run on purpose: the measurements share one warm sandbox and one interleaved schedule.
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    const n = subset === "quick" ? 20 : 50;
    const creates = subset === "quick" ? 3 : 5;
    const config = loadConfig();
    const hostPython = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";
    const repoDir = await mkdtemp(path.join(tmpdir(), "hypofix-bench-"));
    await writeFile(path.join(repoDir, "mod.py"), "x = 1\n");
    const options = {
      repoDir,
      image: config.sandbox.image,
      limits: config.sandbox.limits,
      support: python.sandbox,
    };

    try {
      // Create + start + copy-in of a one-file repository, then dispose (not timed).
      const createSamples: number[] = [];
      for (let i = 0; i < creates; i++) {
        const started = performance.now();
        const sb = await createSandbox("docker", options);
        createSamples.push(performance.now() - started);
        await sb.dispose();
      }

      const sb = await createSandbox("docker", options);
      if (!(sb instanceof DockerSandbox)) throw new Error("expected a docker sandbox");
      const container = dockerClient().getContainer(sb.id);
      let samples: number[][];
      try {
        samples = await timeInterleaved(n, [
          () => run(hostPython, ["-c", "pass"], { timeout: timeoutMs }).then(() => {}),
          () => execOk(sb, ["python3", "-c", "pass"], timeoutMs),
          () => execOk(sb, ["true"], timeoutMs),
          // The fallback path: one `docker exec` per command, for comparison.
          async () => {
            const res = await runExec(container, {
              argv: ["python3", "-c", "pass"],
              workingDir: sb.workdir,
              timeoutMs,
              maxOutputBytes: config.sandbox.limits.outputBytes,
            });
            if (res.exitCode !== 0) throw new Error(`docker exec failed: ${res.stderr}`);
          },
        ]);
      } finally {
        await sb.dispose();
      }
      const [host, warm, bareExec, dockerExec] = samples.map(stats) as [Summary, Summary, Summary, Summary];
      const create = stats(createSamples);
      const addedMedianMs = Math.round((warm.median - host.median) * 10) / 10;

      return {
        rows: [
          { metric: "host python3 -c pass, median", value: host.median, unit: "ms" },
          { metric: "host python3 -c pass, p95", value: host.p95, unit: "ms" },
          { metric: "warm sandbox exec python3 -c pass, median", value: warm.median, unit: "ms" },
          { metric: "warm sandbox exec python3 -c pass, p95", value: warm.p95, unit: "ms" },
          {
            metric: "warm exec overhead on the median",
            value: addedMedianMs,
            unit: "ms",
            target: "< 100 ms",
          },
          { metric: "warm sandbox exec true, median", value: bareExec.median, unit: "ms" },
          {
            metric: "one docker exec per command (fallback), median",
            value: dockerExec.median,
            unit: "ms",
          },
          { metric: "container create+start+copy, median", value: create.median, unit: "ms" },
        ],
        data: {
          unit: "ms",
          n,
          hostPython,
          image: config.sandbox.image,
          host,
          warmExecPython: warm,
          warmExecTrue: bareExec,
          dockerExecPerCommand: dockerExec,
          createStart: create,
          addedMedianMs,
          targetAddedMedianMs: 100,
          meetsTarget: addedMedianMs < 100,
        },
      };
    } finally {
      await rm(repoDir, { recursive: true, force: true });
    }
  },
};

export default sandboxBench;
