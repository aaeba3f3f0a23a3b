/** Time per audited change (`hypofix explain` end to end in a Docker sandbox) on the
 * audit-shop fixture changes, whether each audit reached its expected verdict, and
 * the cost of the call recorder on a suite run against the same run without it. */
import path from "node:path";
import { openWorkspace } from "../src/compose.js";
import { explainChange } from "../src/audit/explain.js";
import { loadConfig } from "../src/config.js";
import { createSandbox } from "../src/sandbox/index.js";
import { buildFixtureRepo } from "../test/audit/fixture-repo.js";
import { summarize } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";
import { python, pythonOf } from "../src/lang/python/index.js";

/** Fixture branch → the verdict a correct audit reaches. */
const EXPECTED: Record<string, "confirmed" | "contradicted" | "not-run"> = {
  silent: "contradicted",
  refactor: "confirmed",
  "false-claim": "contradicted",
  "syntax-error": "contradicted",
  hang: "not-run",
  "docs-only": "not-run",
};
const QUICK = ["silent", "refactor", "false-claim"];
const TARGETS = [
  { file: "shop/pricing.py", qualname: "discount" },
  { file: "shop/pricing.py", qualname: "parse_price" },
  { file: "shop/pricing.py", qualname: "total" },
];

const auditBench: Benchmark = {
  name: "audit",
  description:
    "ms per audited change (explain, docker, offline engine) on fixture changes; recorder overhead on a suite run",
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    const config = loadConfig();
    const repo = buildFixtureRepo("audit-shop");
    const branches = subset === "quick" ? QUICK : Object.keys(EXPECTED);
    const rounds = subset === "quick" ? 2 : 3;
    try {
      const perChange: Record<string, number[]> = {};
      const verdicts: Record<string, string> = {};
      const phases: Record<string, number[]> = {};
      for (let round = 0; round < rounds; round++) {
        for (const head of branches) {
          const started = performance.now();
          const outcome = await explainChange(repo.dir, {
            base: "base",
            head,
            engine: "offline",
            workspace: (dir) => openWorkspace({ repoDir: dir, backend: "docker", config }),
            differential: { testTimeoutMs: 5_000, callTimeoutMs: 3_000, suiteTimeoutMs: timeoutMs },
          });
          (perChange[head] ??= []).push(performance.now() - started);
          verdicts[head] = outcome.verdict;
          for (const [phase, ms] of Object.entries(outcome.evidence.timings)) (phases[phase] ??= []).push(ms);
        }
      }
      const medians = Object.fromEntries(
        Object.entries(perChange).map(([k, v]) => [k, Math.round(summarize(v).median)]),
      );
      const correct = branches.filter((b) => verdicts[b] === EXPECTED[b]).length;
      const overhead = await recorderOverhead(repo.dir, subset === "quick" ? 5 : 11, config);
      const all = Object.values(perChange).flat();
      return {
        rows: [
          ...branches.map((b) => ({ metric: `explain ${b}`, value: medians[b] ?? 0, unit: "ms" })),
          {
            metric: "median per audited change",
            value: Math.round(summarize(all).median),
            unit: "ms",
            target: "< 60000",
          },
          { metric: "expected verdicts", value: `${correct}/${branches.length}` },
          ...Object.entries(phases).map(([phase, v]) => ({
            metric: `  of which ${phase} (median)`,
            value: Math.round(summarize(v).median),
            unit: "ms",
          })),
          { metric: "suite run, plain", value: overhead.plain, unit: "ms" },
          { metric: "suite run, recording 3 functions", value: overhead.recording, unit: "ms" },
          { metric: "recorder overhead", value: overhead.ratio, unit: "x", target: "< 1.5" },
        ],
        data: { rounds, perChange, medians, verdicts, expected: EXPECTED, phases, overhead },
      };
    } finally {
      repo.cleanup();
    }
  },
};

/** Median suite time with and without the recorder in one warm sandbox, interleaved. */
async function recorderOverhead(repoDir: string, n: number, config: ReturnType<typeof loadConfig>) {
  const sandbox = await createSandbox("docker", {
    repoDir,
    image: config.sandbox.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
  try {
    const out = `${sandbox.workdir}/.bench-calls.jsonl`;
    await sandbox.writeFile(
      ".bench-record.json",
      JSON.stringify({ root: sandbox.workdir, targets: TARGETS, out, testTimeout: 0 }),
    );
    const pytest = [pythonOf(sandbox), "-m", "pytest", "-q", "-p", "no:cacheprovider"];
    const env = { PYTHONPATH: sandbox.helpersDir, PYTHONDONTWRITEBYTECODE: "1" };
    const samples = { plain: [] as number[], recording: [] as number[] };
    for (let round = 0; round <= n; round++) {
      let started = performance.now();
      await sandbox.exec(pytest, { env });
      if (round > 0) samples.plain.push(performance.now() - started);
      started = performance.now();
      await sandbox.exec([...pytest, "-p", "record_calls"], {
        env: { ...env, HYPOFIX_RECORD_CONFIG: path.posix.join(sandbox.workdir, ".bench-record.json") },
      });
      if (round > 0) samples.recording.push(performance.now() - started);
    }
    const plain = Math.round(summarize(samples.plain).median);
    const recording = Math.round(summarize(samples.recording).median);
    return { plain, recording, ratio: Math.round((recording / plain) * 100) / 100, samples };
  } finally {
    await sandbox.dispose();
  }
}

export default auditBench;
