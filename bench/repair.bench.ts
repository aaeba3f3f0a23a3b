/** The offline engine over the bug corpora: `hypofix fix` on a fresh buggy copy of each bug,
 * scored by bench/lib/score.ts. The headline is correct fixes over ALL selected bugs, per group
 * (v1, v2 test, v2 dev) and per bug shape; a run that errors, times out, proposes nothing or
 * proposes a patch touching a test counts as not correct. Also median time and experiments. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { createOfflineEngine } from "../src/debug/offline/index.js";
import { languageById } from "../src/lang/registry.js";
import { python } from "../src/lang/python/index.js";
import { runFix, type RunContext } from "../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG } from "../src/repo-config.js";
import type { Result } from "../src/result.js";
import { GROUPS, loadSelection, type BenchBug, type Selection } from "./lib/bugs.js";
import { closeJsMirror } from "./lib/js-bugs.js";
import { scorePatch, tally, verdictOf, type RepairOutcome, type RunStatus, type Score } from "./lib/score.js";
import { mapLimit } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

/** Where the fixes run. `local` (host python, as the corpus checkers use) by default: the corpus
 * projects need no install, and in `docker` the environment phase would run a detected
 * `pip install -e .` for pyproject projects, which fails on an offline machine. */
const BACKEND = (process.env.HYPOFIX_BENCH_SANDBOX ?? "local") as "docker" | "local";
/** The engine's budget is the per-bug timeout; validating the patch it found may take this much
 * longer before the sandbox refuses commands, and past twice this the run counts as a timeout. */
const GRACE_MS = 30_000;

export interface Outcome extends RepairOutcome {
  status: RunStatus;
  /** result.json's reason: why this status. */
  reason?: string;
  score?: Score;
  /** The run's result.json and report, when it ended (the flags benchmark reads them). */
  run?: { result: Result; report: string };
  /** The model's calls and tokens, when an engine used one. */
  usage?: Result["usage"];
}

/** What a fix runs with: the offline engine here; bench/relay.bench.ts gives the llm engine's. */
export type MakeContext = (repoDir: string, bug: BenchBug) => Promise<RunContext>;

/** The offline engine in the bug's language; `audit`: the run audits its patch as the product does. */
export function offlineContext(audit?: RunContext["audit"]): MakeContext {
  return async (_repoDir, bug) => {
    const language = bug.language ? languageById(bug.language)! : python;
    return {
      engine: createOfflineEngine(),
      config: loadConfig(),
      repoConfig: {
        ...DEFAULT_REPO_CONFIG,
        ...(bug.workingDirectory ? { working_directory: bug.workingDirectory } : {}),
      },
      language,
      makeRuntime: (sandbox, where) => language.createRuntime(sandbox, where),
      ...(audit ? { audit } : {}),
    };
  };
}

class Timeout extends Error {}

/** One bug through `runFix`, scored, with the context `makeContext` gives (the offline engine's by default). */
export async function repairBug(
  bug: BenchBug,
  timeoutMs: number,
  makeContext: MakeContext = offlineContext(),
): Promise<Outcome> {
  const scratch = await mkdtemp(join(tmpdir(), `hypofix-repair-${bug.id}-`));
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const base = { id: bug.id, group: bug.group, shape: bug.shape };
  try {
    const repoDir = await bug.materialize(join(scratch, "project"));
    const context = await makeContext(repoDir, bug);
    const fix = runFix(context, {
      repoDir,
      tests: bug.failingTests,
      backend: BACKEND,
      wallClockMs: timeoutMs,
      deadline: Date.now() + timeoutMs + GRACE_MS,
    });
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout()), timeoutMs + 2 * GRACE_MS);
    });
    const { result, report } = await Promise.race([fix, expired]);
    const ms = Math.round(performance.now() - started);
    const proposed = result.status === "fixed" ? result.patches[0] : undefined;
    const score = proposed
      ? await (bug.score ? bug.score(proposed.diff) : scorePatch(bug, proposed.diff))
      : undefined;
    return {
      ...base,
      status: result.status,
      verdict: verdictOf(result.status, score),
      experiments: result.steps.length,
      ms,
      reason: result.reason,
      ...(score ? { score } : {}),
      ...(context.audit ? { run: { result, report } } : {}),
      usage: result.usage,
    };
  } catch (err) {
    const status: RunStatus = err instanceof Timeout ? "timeout" : "crashed";
    return {
      ...base,
      status,
      verdict: verdictOf(status),
      experiments: 0,
      ms: Math.round(performance.now() - started),
      error: err instanceof Timeout ? `no result within ${timeoutMs + 2 * GRACE_MS} ms` : String(err),
    };
  } finally {
    clearTimeout(timer);
    await rm(scratch, { recursive: true, force: true });
  }
}

const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

/** Table rows: per group the headline, the verdicts, medians, then one row per shape. */
export function repairRows(outcomes: readonly RepairOutcome[]): BenchResult["rows"] {
  const groups = tally(outcomes);
  const rows: BenchResult["rows"] = [];
  for (const group of GROUPS) {
    const t = groups[group];
    if (t === undefined) continue;
    rows.push(
      {
        metric: `${group}: fixed correctly`,
        value: `${t.correct} / ${t.bugs}`,
        unit: `(${pct(t.correct, t.bugs)}%)`,
      },
      {
        metric: `${group}: verdicts`,
        value: Object.entries(t.verdicts)
          .map(([v, n]) => `${v} ${n}`)
          .join(", "),
      },
      { metric: `${group}: median time per bug`, value: Math.round(t.medianMs / 100) / 10, unit: "s" },
      { metric: `${group}: median experiments per bug`, value: t.medianExperiments },
    );
    for (const [shape, s] of Object.entries(t.shapes))
      rows.push({ metric: `${group}: ${shape}`, value: `${s.correct} / ${s.bugs}` });
  }
  return rows;
}

/** The bugs the options name: both corpora and v2's test half unless told otherwise. */
export function selectionOf(options: BenchOptions): Selection {
  return {
    corpus: options.corpus ?? "all",
    split: options.split ?? "test",
    subset: options.subset,
    ...(options.bugs ? { ids: options.bugs } : {}),
  };
}

const repairBench: Benchmark = {
  name: "repair",
  description: `offline engine over the bug corpora (${BACKEND} sandbox): correct fixes over all bugs per group and shape, time and experiments per bug`,
  async run(options: BenchOptions): Promise<BenchResult> {
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const selection = selectionOf(options);
    const bugs = await loadSelection(selection);
    const outcomes = await mapLimit(bugs, options.jobs ?? 1, async (bug) => {
      const outcome = await repairBug(bug, options.timeoutMs);
      process.stderr.write(
        `repair: ${bug.group} ${bug.id} (${bug.shape}): ${outcome.verdict} [${outcome.status}], ${outcome.experiments} experiments, ${(outcome.ms / 1000).toFixed(1)} s${outcome.verdict === "correct" ? "" : ` — ${outcome.error ?? outcome.reason ?? ""}`}\n`,
      );
      return outcome;
    }).finally(closeJsMirror);
    return {
      rows: [{ metric: "bugs", value: outcomes.length }, ...repairRows(outcomes)],
      data: {
        backend: BACKEND,
        corpus: selection.corpus,
        split: selection.split,
        jobs: options.jobs ?? 1,
        tally: tally(outcomes),
        outcomes,
      },
    };
  },
};

export default repairBench;
