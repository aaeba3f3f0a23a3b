/** The cost of the Python instruments in a warm Docker sandbox against a bare
 * host pytest run of the same test (target: an experiment under 1.5x), and the
 * overhead of per-test coverage with each collector. */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadConfig } from "../src/config.js";
import { createPythonRuntime, python } from "../src/lang/python/index.js";
import type { Runtime } from "../src/lang/types.js";
import { createSandbox } from "../src/sandbox/index.js";
import { HOST_PYTHON } from "./lib/pytest.js";
import { summarize } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL("../test/fixtures/py-calc", import.meta.url));
const TEST = "tests/test_stats.py::test_total";
/** Every fixture test except the one that hangs on purpose. */
const SUITE = ["tests/test_stats.py", "tests/test_grade.py", "tests/test_wait.py::test_noisy"];
const DEBUGGER = "b calc/stats.py:4 ;; c ;; p s";
const EDIT = 'REPLACE(calc/stats.py:3, "len(xs) - 1", "len(xs)") AND RUN';

/**
 * Samples (ms) of each task over `n` rounds after one untimed warm-up round.
 * Rounds interleave the tasks, so load from other processes on the shared
 * machine weighs on every task alike.
 */
async function interleaved<K extends string>(
  n: number,
  tasks: Record<K, () => Promise<unknown>>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(tasks) as K[];
  const samples = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round <= n; round++) {
    for (const name of names) {
      const started = performance.now();
      await tasks[name]();
      if (round > 0) samples[name].push(performance.now() - started);
    }
  }
  return samples;
}

const med = (samples: number[]) => Math.round(summarize(samples).median);
/** Median of the per-round ratios: each round's pair ran back to back under the same load. */
const pairedRatio = (a: number[], b: number[]) =>
  Math.round(summarize(a.map((x, i) => x / b[i]!)).median * 100) / 100;

async function observeOk(runtime: Runtime, experiment: string, expected: RegExp): Promise<void> {
  const obs = await runtime.observe(TEST, experiment);
  if (!expected.test(obs.observation)) throw new Error(`unexpected observation: ${obs.observation}`);
}

const pythonBench: Benchmark = {
  name: "python",
  description:
    "one debugger and one edit-and-run experiment in a warm docker sandbox vs a bare host pytest run of the test; coverage overhead",
  // One long run on purpose: the measurements share one warm sandbox and one interleaved schedule.
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    const n = subset === "quick" ? 7 : 21;
    const config = loadConfig();
    const hostCopy = await mkdtemp(path.join(tmpdir(), "hypofix-bench-py-"));
    await cp(FIXTURE, hostCopy, { recursive: true });
    const sandbox = await createSandbox("docker", {
      repoDir: FIXTURE,
      image: config.sandbox.image,
      limits: config.sandbox.limits,
      support: python.sandbox,
    });
    try {
      const runtime = createPythonRuntime(sandbox, { timeoutMs });
      const single = await interleaved(n, {
        bare: () =>
          run(HOST_PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", TEST], {
            cwd: hostCopy,
            timeout: timeoutMs,
          }).catch((err: { code?: number }) => {
            if (err.code !== 1) throw err; // the test fails on purpose: exit 1
          }),
        debugger: () =>
          observeOk(runtime, DEBUGGER, /^At each loop execution, the expression was: \[0, 1, 3, 6, 10\]$/),
        edit: () => observeOk(runtime, EDIT, /^\[No exception triggered\]$/),
        trace: () => runtime.trace(TEST, "calc/stats.py", "total"),
        runTest: () => runtime.runTests([TEST]),
      });
      const bare = med(single.bare);
      const debuggerMs = med(single.debugger);
      const editMs = med(single.edit);
      const traceMs = med(single.trace);
      const runTestMs = med(single.runTest);

      const byMethod = (method: "coverage" | "settrace") =>
        createPythonRuntime(sandbox, { timeoutMs, coverageMethod: method });
      const suite = await interleaved(n, {
        none: () => runtime.runTests(SUITE),
        coverage: () => byMethod("coverage").coverage(SUITE),
        settrace: () => byMethod("settrace").coverage(SUITE),
      });
      const suiteMs = med(suite.none);
      const coverage = { coverage: med(suite.coverage), settrace: med(suite.settrace) };
      const faster = coverage.coverage <= coverage.settrace ? "coverage" : "settrace";

      return {
        rows: [
          { metric: "bare host pytest, one test", value: bare, unit: "ms" },
          { metric: "debugger experiment", value: debuggerMs, unit: "ms" },
          {
            metric: "debugger / bare pytest",
            value: pairedRatio(single.debugger, single.bare),
            unit: "x",
            target: "< 1.5",
          },
          { metric: "edit-and-run experiment", value: editMs, unit: "ms" },
          {
            metric: "edit-and-run / bare pytest",
            value: pairedRatio(single.edit, single.bare),
            unit: "x",
            target: "< 1.5",
          },
          { metric: "block trace", value: traceMs, unit: "ms" },
          { metric: "runTests, one test, sandbox", value: runTestMs, unit: "ms" },
          { metric: "fixture suite, no coverage", value: suiteMs, unit: "ms" },
          {
            metric: "coverage overhead (coverage.py contexts)",
            value: pairedRatio(suite.coverage, suite.none),
            unit: "x",
          },
          {
            metric: "coverage overhead (settrace)",
            value: pairedRatio(suite.settrace, suite.none),
            unit: "x",
          },
          { metric: "faster coverage collector", value: faster },
        ],
        data: {
          n,
          test: TEST,
          bareMs: bare,
          debuggerMs,
          editMs,
          traceMs,
          runTestMs,
          suiteMs,
          coverage,
          faster,
        },
      };
    } finally {
      await sandbox.dispose();
      await rm(hostCopy, { recursive: true, force: true });
    }
  },
};

export default pythonBench;
