/** SBFL's function-level accuracy on the bug corpus: acc@1/3/5 of Ochiai and DStar,
 * from real per-test coverage in the Docker sandbox. Ground truth: the functions of
 * the bug's hunks (manifest `file` + `function`); a bug counts at k when any of them
 * ranks k or better, as in the AutoFL paper's acc@k. */
import { loadConfig } from "../src/config.js";
import { createPythonRuntime } from "../src/lang/python/index.js";
import { compareScores, sbfl, type SbflFormula } from "../src/localize/sbfl.js";
import { createSandbox } from "../src/sandbox/index.js";
import { bugDir, loadBugs, type Bug } from "./corpus-tools/manifest.js";
import { median } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const FORMULAS: SbflFormula[] = ["ochiai", "dstar"];
const KS = [1, 3, 5] as const;

interface Rank {
  /** Best rank of a faulty function in our deterministic tie order; null when not ranked. */
  ordered: number | null;
  /** The same with every tie resolved against it (functions scoring at least as high). */
  worst: number | null;
  /** Functions ranked at all (executed by a failing test). */
  candidates: number;
}

interface BugOutcome {
  id: string;
  rank: Record<SbflFormula, Rank>;
  coverageMs: number;
  error?: string;
}

async function localizeBug(bug: Bug, timeoutMs: number): Promise<BugOutcome> {
  const config = loadConfig();
  const sandbox = await createSandbox("docker", {
    repoDir: bugDir(bug),
    image: config.sandbox.image,
    limits: config.sandbox.limits,
  });
  try {
    const runtime = createPythonRuntime(sandbox, { timeoutMs });
    const started = performance.now();
    const coverage = await runtime.coverage();
    const coverageMs = Math.round(performance.now() - started);
    const faulty = new Set(bug.hunks.map((h) => `${h.file}::${h.function}`));
    const rank = {} as Record<SbflFormula, Rank>;
    for (const formula of FORMULAS) {
      const { functions } = sbfl({ coverage, failingTests: bug.failingTests, formula });
      const hit = functions.find((e) => faulty.has(`${e.file}::${e.function}`));
      const worst = hit ? functions.filter((e) => compareScores(e.score, hit.score) <= 0).length : null;
      rank[formula] = { ordered: hit?.rank ?? null, worst, candidates: functions.length };
    }
    return { id: bug.id, rank, coverageMs };
  } finally {
    await sandbox.dispose();
  }
}

const localizeBench: Benchmark = {
  name: "localize",
  description: "SBFL (Ochiai, DStar) function-level acc@1/3/5 on the bug corpus, real coverage in Docker",
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    const bugs = await loadBugs({ subset });
    const outcomes: BugOutcome[] = [];
    for (const bug of bugs) {
      try {
        outcomes.push(await localizeBug(bug, timeoutMs));
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const none: Rank = { ordered: null, worst: null, candidates: 0 };
        outcomes.push({ id: bug.id, rank: { ochiai: none, dstar: none }, coverageMs: 0, error });
      }
    }
    const n = outcomes.length;
    const rows: BenchResult["rows"] = [{ metric: "bugs", value: n }];
    const accuracy: Record<string, Record<string, number>> = {};
    const within = (r: number | null, k: number) => r !== null && r <= k;
    for (const formula of FORMULAS) {
      const acc: Record<string, number> = {};
      for (const k of KS) {
        const hits = outcomes.filter((o) => within(o.rank[formula].ordered, k)).length;
        const worst = outcomes.filter((o) => within(o.rank[formula].worst, k)).length;
        acc[`acc@${k}`] = hits;
        acc[`acc@${k} worst-case ties`] = worst;
        rows.push({
          metric: `${formula} acc@${k} (worst-case ties)`,
          value: `${hits}/${n} (${Math.round((100 * hits) / n)}%; ${worst})`,
        });
      }
      accuracy[formula] = acc;
    }
    rows.push({
      metric: "median functions ranked per bug",
      value: n > 0 ? median(outcomes.map((o) => o.rank.ochiai.candidates)) : 0,
    });
    const failed = outcomes.filter((o) => o.error !== undefined);
    const times = outcomes.filter((o) => o.error === undefined).map((o) => o.coverageMs);
    rows.push({
      metric: "median coverage run per bug",
      value: times.length > 0 ? Math.round(median(times)) : 0,
      unit: "ms",
    });
    if (failed.length > 0) rows.push({ metric: "bugs that failed to run", value: failed.length });
    return { rows, data: { subset, n, accuracy, outcomes } };
  },
};

export default localizeBench;
