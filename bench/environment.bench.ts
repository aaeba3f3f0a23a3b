/** Environments: build time cold and cached, the time from the start of a job to its first test
 * result (environment, sandbox, one test) for a repository with a setup (cold, cached) and without
 * one, and how far past its deadline the runner's timer-thread stops a hung test. */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig, type Config } from "../src/config.js";
import { createPythonRuntime, python } from "../src/lang/python/index.js";
import { environmentPhase } from "../src/pipeline/environment.js";
import { DEFAULT_REPO_CONFIG } from "../src/repo-config.js";
import { dockerClient } from "../src/sandbox/docker.js";
import { createSandbox } from "../src/sandbox/index.js";
import { hostAddress } from "../test/helpers/host-address.js";
import { servePackageMirror } from "./lib/package-mirror.js";
import { summarize } from "./lib/stats.js";
import { buildWheel } from "./lib/wheel.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));
const med = (samples: number[]) => Math.round(summarize(samples).median);

interface FirstTest {
  environmentMs: number;
  firstTestMs: number;
  image: string;
  cached: boolean;
}

/** One job's start: the environment phase, a sandbox from its image, one test run. */
async function firstTest(config: Config, repoDir: string, scope: string, test: string): Promise<FirstTest> {
  const started = performance.now();
  const env = await environmentPhase({
    repoDir,
    backend: "docker",
    config,
    repoConfig: DEFAULT_REPO_CONFIG,
    language: python,
    scope,
    allowSetupNetwork: true,
  });
  if ("error" in env) throw new Error(env.error);
  const environmentMs = performance.now() - started;
  const sandbox = await createSandbox("docker", {
    repoDir,
    image: env.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
  try {
    const run = await createPythonRuntime(sandbox).runTests([test]);
    if (run.tests.length !== 1) throw new Error(`the first test did not run: ${run.errors.join("; ")}`);
    return {
      environmentMs,
      firstTestMs: performance.now() - started,
      image: env.image,
      cached: env.record.cached,
    };
  } finally {
    await sandbox.dispose();
  }
}

/** ms past a 1 s deadline at which the runner reports a hung test stopped (blocked in sleep; busy). */
async function overshoot(
  config: Config,
  repoDir: string,
  n: number,
): Promise<{ sleep: number[]; busy: number[] }> {
  const sandbox = await createSandbox("docker", {
    repoDir,
    image: config.sandbox.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
  const samples = { sleep: [] as number[], busy: [] as number[] };
  try {
    await sandbox.writeFile(
      "tests/test_hang.py",
      "import time\n\ndef test_sleep():\n    time.sleep(600)\n\ndef test_busy():\n    while True:\n        pass\n",
    );
    const runtime = createPythonRuntime(sandbox);
    for (let i = 0; i < n; i++) {
      for (const kind of ["sleep", "busy"] as const) {
        const run = await runtime.runTests([`tests/test_hang.py::test_${kind}`], { timeoutMs: 1_000 });
        if (!run.timedOut) throw new Error(`test_${kind} was not stopped at its deadline`);
        // The helper's own clock: from pytest's start, so interpreter start-up is not counted.
        samples[kind].push(run.durationMs - 1_000);
      }
    }
  } finally {
    await sandbox.dispose();
  }
  return samples;
}

const environmentBench: Benchmark = {
  name: "environment",
  description:
    "environment build (cold, cached) and time to first test (cold, cached, no setup) in docker; the runner's deadline overshoot",
  async run({ subset }: BenchOptions): Promise<BenchResult> {
    const cold = subset === "quick" ? 2 : 5;
    const cached = subset === "quick" ? 3 : 10;
    const work = await mkdtemp(path.join(tmpdir(), "hypofix-bench-env-"));
    const deps = path.join(work, "deps");
    const plain = path.join(work, "plain");
    await cp(fixture("env-deps"), deps, { recursive: true });
    await cp(fixture("env-src"), plain, { recursive: true });
    // env-deps installs hypofix-shiny from a company mirror: ours, on this host, through the egress proxy.
    await buildWheel(path.join(work, "wheels"), "hypofix-shiny", "1.0", {
      "shiny/__init__.py": "def double(x):\n    return 2 * x\n",
    });
    const host = await hostAddress();
    const mirror = await servePackageMirror(path.join(work, "wheels"), host.address);
    const config = loadConfig({
      ...process.env,
      HYPOFIX_PIP_INDEX_URL: `${mirror.url}/simple/`,
      HYPOFIX_SETUP_ALLOW_HOSTS: "",
    });
    const images = new Set<string>();
    const depsTest = "tests/test_pricing.py::test_drops_values_over_the_limit";
    try {
      // A new scope per cold sample: the same repository as a stranger, so nothing is cached.
      const colds: FirstTest[] = [];
      for (let i = 0; i < cold; i++) {
        const sample = await firstTest(config, deps, `bench-${process.pid}-${Date.now()}-${i}`, depsTest);
        if (sample.cached) throw new Error("a cold sample found a cached environment");
        images.add(sample.image);
        colds.push(sample);
      }
      const scope = `bench-${process.pid}-cached`;
      images.add((await firstTest(config, deps, scope, depsTest)).image);
      const warms: FirstTest[] = [];
      const bases: FirstTest[] = [];
      for (let i = 0; i < cached; i++) {
        const sample = await firstTest(config, deps, scope, depsTest);
        if (!sample.cached) throw new Error("a cached sample built its environment");
        warms.push(sample);
        bases.push(await firstTest(config, plain, scope, "tests/test_limits.py::test_over_limit"));
      }
      const deadline = await overshoot(config, plain, subset === "quick" ? 3 : 10);
      const data = {
        buildColdMs: colds.map((s) => Math.round(s.environmentMs)),
        environmentCachedMs: warms.map((s) => Math.round(s.environmentMs)),
        firstTestColdMs: colds.map((s) => Math.round(s.firstTestMs)),
        firstTestCachedMs: warms.map((s) => Math.round(s.firstTestMs)),
        firstTestNoSetupMs: bases.map((s) => Math.round(s.firstTestMs)),
        deadlineOvershootMs: { sleep: deadline.sleep.map(Math.round), busy: deadline.busy.map(Math.round) },
      };
      return {
        rows: [
          { metric: "environment build, cold (median)", value: med(data.buildColdMs), unit: "ms" },
          { metric: "environment, cached (median)", value: med(data.environmentCachedMs), unit: "ms" },
          {
            metric: "time to first test, cold environment (median)",
            value: med(data.firstTestColdMs),
            unit: "ms",
          },
          {
            metric: "time to first test, cached environment (median)",
            value: med(data.firstTestCachedMs),
            unit: "ms",
          },
          {
            metric: "time to first test, no setup (median)",
            value: med(data.firstTestNoSetupMs),
            unit: "ms",
          },
          {
            metric: "deadline overshoot, test blocked in sleep (median)",
            value: med(deadline.sleep),
            unit: "ms",
          },
          { metric: "deadline overshoot, busy test (median)", value: med(deadline.busy), unit: "ms" },
        ],
        data,
      };
    } finally {
      for (const image of images)
        await dockerClient()
          .getImage(image)
          .remove({ force: true })
          .catch(() => undefined);
      mirror.close();
      await host.remove();
      await rm(work, { recursive: true, force: true });
    }
  },
};

export default environmentBench;
