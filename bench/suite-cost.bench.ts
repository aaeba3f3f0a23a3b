/**
 * What a job costs on a real-sized suite, in suite runs: a generated 700-test suite with one
 * boundary bug, the whole pipeline (offline engine, offline audit, local sandbox), every test
 * the job runs counted by phase. "Outside debugging" is every phase but the engine's loop
 * (whose validations depend on how many candidates it tries). Run twice: the audit on the
 * tests that reach the changed code (now), and on the whole suite on each side (before).
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipelineAudit } from "../src/audit/index.js";
import { loadConfig } from "../src/config.js";
import { createOfflineEngine } from "../src/debug/offline/index.js";
import { python } from "../src/lang/python/index.js";
import type { CallRecording, Runtime } from "../src/lang/types.js";
import { runFix, type Phase, type RunContext } from "../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG } from "../src/repo-config.js";
import type { Benchmark, BenchResult } from "./types.js";

const MODULES = 35;
const TESTS_PER_MODULE = 20;
const SUITE = MODULES * TESTS_PER_MODULE;
const ORDER: Phase[] = [
  "environment",
  "sandbox",
  "reproduce",
  "localize",
  "debug",
  "validate",
  "revalidate",
  "audit",
  "report",
];

/** 35 modules of 20 tests each; module 0's `is_adult` says 18 is not adult (one test fails). */
async function generate(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "hypofix-suite-cost-"));
  await mkdir(path.join(dir, "pkg"));
  await mkdir(path.join(dir, "tests"));
  await writeFile(
    path.join(dir, "pyproject.toml"),
    '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
  );
  await writeFile(path.join(dir, "pkg", "__init__.py"), "");
  for (let m = 0; m < MODULES; m++) {
    const cmp = m === 0 ? ">" : ">=";
    await writeFile(
      path.join(dir, "pkg", `m${m}.py`),
      `def is_adult(age):\n    return age ${cmp} 18\n\n\ndef scale(x):\n    return x * ${m + 2}\n`,
    );
    const tests = [`from pkg.m${m} import is_adult, scale\n`];
    tests.push(`\ndef test_adult_at_18():\n    assert is_adult(18)\n`);
    for (let t = 1; t < TESTS_PER_MODULE; t++) {
      tests.push(`\ndef test_scale_${t}():\n    assert scale(${t}) == ${t * (m + 2)}\n`);
    }
    await writeFile(path.join(dir, "tests", `test_m${m}.py`), tests.join(""));
  }
  return dir;
}

interface Count {
  tests: Record<string, number>;
  calls: Record<string, number>;
}

/** The Python runtime, counting the tests each phase runs (runs, coverage, the audit's recordings). */
function counting(count: Count, phase: () => string): RunContext["makeRuntime"] {
  const add = (n: number) => {
    count.tests[phase()] = (count.tests[phase()] ?? 0) + n;
    count.calls[phase()] = (count.calls[phase()] ?? 0) + 1;
  };
  return (sandbox, where) => {
    const real = python.createRuntime(sandbox, { ...where, timeoutMs: 120_000 });
    const runtime: Runtime = Object.create(real) as Runtime;
    runtime.runTests = async (ids, o) => {
      const run = await real.runTests(ids, o);
      add(run.tests.length);
      return run;
    };
    runtime.coverage = async (ids, o) => {
      const report = await real.coverage(ids, o);
      add(Object.keys(report.outcomes).length);
      return report;
    };
    runtime.recordCalls = async (recording: CallRecording) => {
      add(recording.tests?.length ?? SUITE);
      return real.recordCalls(recording);
    };
    return runtime;
  };
}

async function job(dir: string, wholeSuiteAudit: boolean) {
  let done = -1;
  const phase = () => ORDER[done + 1] ?? "report";
  const count: Count = { tests: {}, calls: {} };
  const audit = pipelineAudit({ engine: "offline" });
  const context: RunContext = {
    config: loadConfig(),
    repoConfig: DEFAULT_REPO_CONFIG,
    language: python,
    engine: createOfflineEngine(),
    makeRuntime: counting(count, phase),
    audit: (input) => audit(wholeSuiteAudit ? { ...input, tests: undefined } : input),
  };
  const outcome = await runFix(context, {
    repoDir: dir,
    tests: [],
    backend: "local",
    onPhase: (p) => (done = ORDER.indexOf(p)),
  });
  const outside = Object.entries(count.tests)
    .filter(([p]) => p !== "debug")
    .reduce((sum, [, n]) => sum + n, 0);
  const all = Object.values(count.tests).reduce((sum, n) => sum + n, 0);
  const timings = outcome.result.timings;
  const suiteMs = count.tests.reproduce ? (timings.reproduce ?? 0) : 0;
  return {
    status: outcome.result.status,
    count,
    suiteRunsOutside: Math.round((100 * outside) / SUITE) / 100,
    suiteRunsInAll: Math.round((100 * all) / SUITE) / 100,
    msOutsideDebug: Math.round((timings.total ?? 0) - (timings.debug ?? 0)),
    reproduceMs: Math.round(suiteMs),
    timings,
  };
}

const suiteCost: Benchmark = {
  name: "suite-cost",
  description: `suite runs and time outside debugging of one job on a generated ${SUITE}-test suite (local sandbox)`,
  async run(): Promise<BenchResult> {
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const dir = await generate();
    try {
      const now = await job(dir, false);
      const before = await job(dir, true);
      const phases = [...new Set([...Object.keys(now.count.tests), ...Object.keys(before.count.tests)])];
      return {
        rows: [
          { metric: "status (now / whole-suite audit)", value: `${now.status} / ${before.status}` },
          ...phases.map((p) => ({
            metric: `tests run in ${p} (now / before)`,
            value: `${now.count.tests[p] ?? 0} / ${before.count.tests[p] ?? 0}`,
          })),
          {
            metric: "suite runs outside debugging, before (audit on the whole suite)",
            value: before.suiteRunsOutside,
            unit: "suites",
          },
          {
            metric: "suite runs outside debugging, now (audit on the tests reaching the change)",
            value: now.suiteRunsOutside,
            unit: "suites",
            target: "<= 3",
          },
          {
            metric:
              "suite runs in the whole job, now (debugging validates on the tests reaching each candidate)",
            value: now.suiteRunsInAll,
            unit: "suites",
          },
          { metric: "time outside debugging, before", value: before.msOutsideDebug, unit: "ms" },
          { metric: "time outside debugging, now", value: now.msOutsideDebug, unit: "ms" },
        ],
        data: { suite: SUITE, now, before },
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default suiteCost;
