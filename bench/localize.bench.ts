/** SBFL's function-level accuracy on the bug corpora: acc@1/3/5 of Ochiai and DStar, from real
 * per-test coverage in the Docker sandbox, per group (v1, v2 test, v2 dev), with the plain
 * spectrum ("plain") and with caught-and-re-raised exceptions followed to where they started
 * ("causes"). Ground truth: the functions the bug's fix changes; a bug counts at k when any of
 * them ranks k or better, as in the AutoFL paper's acc@k. A v2 bug fixed at module level has no
 * function and counts as a miss. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { createPythonRuntime, python } from "../src/lang/python/index.js";
import { sbfl, worstCaseRank, type SbflFormula } from "../src/localize/sbfl.js";
import { createSandbox } from "../src/sandbox/index.js";
import { GROUPS, loadSelection, type BenchBug, type BugGroup } from "./lib/bugs.js";
import { mapLimit, median } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const FORMULAS: SbflFormula[] = ["ochiai", "dstar"];
const MODES = ["plain", "causes"] as const;
type Mode = (typeof MODES)[number];
const KS = [1, 3, 5] as const;

interface Rank {
  /** Best rank of a faulty function in our deterministic tie order; null when not ranked. */
  ordered: number | null;
  /** The same with every tie resolved against it. */
  worst: number | null;
  /** Functions ranked at all (executed by a failing test). */
  candidates: number;
}

type Ranks = Record<`${SbflFormula} ${Mode}`, Rank>;

interface BugOutcome {
  id: string;
  group: BugGroup;
  /** A failing test's exception was raised from another (a chain SBFL may follow). */
  chained: boolean;
  rank: Ranks;
  coverageMs: number;
  error?: string;
}

async function localizeBug(bug: BenchBug, timeoutMs: number): Promise<BugOutcome> {
  const config = loadConfig();
  const scratch = await mkdtemp(join(tmpdir(), `hypofix-localize-${bug.id}-`));
  const repoDir = await bug.materialize(join(scratch, "project"));
  const sandbox = await createSandbox("docker", {
    repoDir,
    image: config.sandbox.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
  try {
    const runtime = createPythonRuntime(sandbox, { timeoutMs });
    const started = performance.now();
    const coverage = await runtime.coverage();
    const coverageMs = Math.round(performance.now() - started);
    const faulty = new Set(bug.faulty.map((f) => `${f.file}::${f.function}`));
    const rank = {} as Ranks;
    let chained = false;
    for (const formula of FORMULAS) {
      for (const mode of MODES) {
        const result = sbfl({
          coverage,
          failingTests: bug.failingTests,
          formula,
          followCauses: mode === "causes",
        });
        if (result.causes.length > 0) chained = true;
        const hit = result.functions.find((e) => faulty.has(`${e.file}::${e.function}`));
        rank[`${formula} ${mode}`] = {
          ordered: hit?.rank ?? null,
          worst: hit ? worstCaseRank(result, hit) : null,
          candidates: result.functions.length,
        };
      }
    }
    return { id: bug.id, group: bug.group, chained, rank, coverageMs };
  } finally {
    await sandbox.dispose();
    await rm(scratch, { recursive: true, force: true });
  }
}

const within = (r: number | null, k: number) => r !== null && r <= k;

const localizeBench: Benchmark = {
  name: "localize",
  description:
    "SBFL (Ochiai, DStar) function-level acc@1/3/5 on the corpora per group, plain and following exception causes; real coverage in Docker",
  async run(options: BenchOptions): Promise<BenchResult> {
    // Python's corpora: this harness measures coverage with Python's runtime (the JS corpus is in repair).
    const bugs = (
      await loadSelection({
        corpus: options.corpus ?? "all",
        split: options.split ?? "all",
        subset: options.subset,
        ...(options.bugs ? { ids: options.bugs } : {}),
      })
    ).filter((bug) => bug.language === undefined);
    const outcomes = await mapLimit(bugs, options.jobs ?? 1, async (bug): Promise<BugOutcome> => {
      try {
        return await localizeBug(bug, options.timeoutMs);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const none: Rank = { ordered: null, worst: null, candidates: 0 };
        const rank = Object.fromEntries(
          FORMULAS.flatMap((f) => MODES.map((m) => [`${f} ${m}`, none])),
        ) as Ranks;
        process.stderr.write(`localize: ${bug.id}: ${error}\n`);
        return { id: bug.id, group: bug.group, chained: false, rank, coverageMs: 0, error };
      }
    });
    const rows: BenchResult["rows"] = [{ metric: "bugs", value: outcomes.length }];
    const accuracy: Record<string, Record<string, Record<string, number>>> = {};
    for (const group of GROUPS) {
      const of = outcomes.filter((o) => o.group === group);
      const n = of.length;
      if (n === 0) continue;
      rows.push({
        metric: `${group}: bugs (with an exception chain)`,
        value: `${n} (${of.filter((o) => o.chained).length})`,
      });
      accuracy[group] = {};
      for (const formula of FORMULAS) {
        for (const mode of MODES) {
          const key = `${formula} ${mode}` as const;
          const acc: Record<string, number> = {};
          const parts: string[] = [];
          for (const k of KS) {
            acc[`acc@${k}`] = of.filter((o) => within(o.rank[key].ordered, k)).length;
            acc[`acc@${k} worst-case ties`] = of.filter((o) => within(o.rank[key].worst, k)).length;
            parts.push(`@${k} ${acc[`acc@${k}`]} (${acc[`acc@${k} worst-case ties`]})`);
          }
          accuracy[group][key] = acc;
          rows.push({ metric: `${group}: ${key} acc (worst-case ties) of ${n}`, value: parts.join(", ") });
        }
      }
    }
    const ran = outcomes.filter((o) => o.error === undefined);
    rows.push(
      {
        metric: "median functions ranked per bug",
        value: ran.length > 0 ? median(ran.map((o) => o.rank["ochiai plain"].candidates)) : 0,
      },
      {
        metric: "median coverage run per bug",
        value: ran.length > 0 ? Math.round(median(ran.map((o) => o.coverageMs))) : 0,
        unit: "ms",
      },
    );
    const failed = outcomes.length - ran.length;
    if (failed > 0) rows.push({ metric: "bugs that failed to run (count as misses)", value: failed });
    return { rows, data: { subset: options.subset, accuracy, outcomes } };
  },
};

export default localizeBench;
