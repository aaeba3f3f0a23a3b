import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "../src/config.js";
import { DockerSandbox, dockerClient, runExec } from "../src/sandbox/docker.js";
import { createSandbox, type Sandbox } from "../src/sandbox/index.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const run = promisify(execFile);

interface Stats {
  n: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest-rank percentiles; the sample count is never zero here.
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    medianMs: round(at(0.5)),
    p95Ms: round(at(0.95)),
    minMs: round(sorted[0] ?? NaN),
    maxMs: round(sorted.at(-1) ?? NaN),
  };
}

async function timeRuns(n: number, once: () => Promise<void>): Promise<number[]> {
  await once(); // warm-up, not counted
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
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
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    const n = subset === "quick" ? 20 : 50;
    const creates = subset === "quick" ? 3 : 5;
    const config = loadConfig();
    const hostPython = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";
    const repoDir = await mkdtemp(path.join(tmpdir(), "hypofix-bench-"));
    await writeFile(path.join(repoDir, "mod.py"), "x = 1\n");
    const options = { repoDir, image: config.sandbox.image, limits: config.sandbox.limits };

    try {
      const host = stats(
        await timeRuns(n, () => run(hostPython, ["-c", "pass"], { timeout: timeoutMs }).then(() => {})),
      );

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
      let warm: Stats;
      let bareExec: Stats;
      let dockerExec: Stats;
      try {
        warm = stats(await timeRuns(n, () => execOk(sb, ["python3", "-c", "pass"], timeoutMs)));
        bareExec = stats(await timeRuns(n, () => execOk(sb, ["true"], timeoutMs)));
        // The fallback path: one `docker exec` per command, for comparison.
        const viaDockerExec = async () => {
          const res = await runExec(container, {
            argv: ["python3", "-c", "pass"],
            workingDir: sb.workdir,
            timeoutMs,
            maxOutputBytes: config.sandbox.limits.outputBytes,
          });
          if (res.exitCode !== 0) throw new Error(`docker exec failed: ${res.stderr}`);
        };
        dockerExec = stats(await timeRuns(n, viaDockerExec));
      } finally {
        await sb.dispose();
      }
      const create = stats(createSamples);
      const addedMedianMs = Math.round((warm.medianMs - host.medianMs) * 10) / 10;

      return {
        rows: [
          { metric: "host python3 -c pass, median", value: host.medianMs, unit: "ms" },
          { metric: "host python3 -c pass, p95", value: host.p95Ms, unit: "ms" },
          { metric: "warm sandbox exec python3 -c pass, median", value: warm.medianMs, unit: "ms" },
          { metric: "warm sandbox exec python3 -c pass, p95", value: warm.p95Ms, unit: "ms" },
          {
            metric: "warm exec overhead on the median",
            value: addedMedianMs,
            unit: "ms",
            target: "< 100 ms",
          },
          { metric: "warm sandbox exec true, median", value: bareExec.medianMs, unit: "ms" },
          {
            metric: "one docker exec per command (fallback), median",
            value: dockerExec.medianMs,
            unit: "ms",
          },
          { metric: "container create+start+copy, median", value: create.medianMs, unit: "ms" },
        ],
        data: {
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
