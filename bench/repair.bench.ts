/** The offline engine over the bug corpus: plausible and correct fixes per mutator class,
 * time and experiments per bug. Plausible = `hypofix fix` found a patch that makes the
 * failing tests pass and breaks no visible test; correct = the held-out tests pass too.
 * "Template-reversible" bugs are those whose inverse edit one of the offline templates
 * produces at the mutated line: the target (at least 60% of them fixed plausibly) is
 * measured on those. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch, parsePatch } from "diff";
import { loadConfig } from "../src/config.js";
import { createOfflineEngine } from "../src/debug/offline.js";
import { candidatesForLine, scopeNames } from "../src/debug/templates.js";
import { applyEdits, createPythonRuntime, parseExperiment } from "../src/lang/python/index.js";
import { runFix } from "../src/pipeline.js";
import { DEFAULT_REPO_CONFIG } from "../src/repo-config.js";
import type { Result } from "../src/result.js";
import { bugDir, copyBug, loadBugs, type Bug } from "./corpus-tools/manifest.js";
import { scoreProject } from "./lib/score.js";
import { median } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

/** Where the fixes run; `local` (host python) is faster, `docker` is what users get. */
const BACKEND = (process.env.HYPOFIX_BENCH_SANDBOX ?? "docker") as "docker" | "local";

interface BugOutcome {
  id: string;
  mutator: string;
  reversible: boolean;
  status: Result["status"] | "crashed";
  plausible: boolean;
  correct: boolean;
  /** Visible tests that passed before and fail with the proposed patch (must stay 0). */
  broken: number;
  experiments: number;
  ms: number;
  error?: string;
}

/** True when a single template edit at the hunk's line gives back the original line. */
async function templateReversible(bug: Bug): Promise<boolean> {
  if (bug.hunks.length !== 1 || bug.hunks[0]!.op !== "replace") return false;
  const hunk = bug.hunks[0]!;
  const source = await readFile(join(bugDir(bug), hunk.file), "utf8");
  const parsed = parseExperiment(`${bug.inverse} AND RUN`);
  if (!parsed.ok || parsed.experiment.kind !== "edit") return false;
  const original = applyEdits(source, parsed.experiment.edits).source.split("\n")[hunk.line - 1];
  const lines = source.split("\n");
  const buggy = lines[hunk.line - 1] ?? "";
  const scope = scopeNames(lines.join("\n"));
  return candidatesForLine({ line: hunk.line, text: buggy, scope }).some(
    (c) => applyEdits(source, c.edits).source.split("\n")[hunk.line - 1] === original,
  );
}

/** The proposed patch applied to a scratch copy, scored by bench/lib/score.ts (errors and timeouts count against it). */
async function isCorrect(bug: Bug, diff: string): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), `hypofix-correct-${bug.id}-`));
  try {
    await copyBug(bug, dir);
    for (const filePatch of parsePatch(diff)) {
      const file = (filePatch.newFileName ?? "").replace(/^b\//, "");
      const patched = applyPatch(await readFile(join(dir, file), "utf8"), filePatch);
      if (patched === false) return false;
      await writeFile(join(dir, file), patched);
    }
    return (await scoreProject(bug, dir)).correct;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function repairBug(bug: Bug, timeoutMs: number): Promise<BugOutcome> {
  const reversible = await templateReversible(bug);
  const started = performance.now();
  const base = { id: bug.id, mutator: bug.mutator, reversible };
  try {
    const { result } = await runFix({
      repoDir: bugDir(bug),
      tests: bug.failingTests,
      engine: createOfflineEngine(),
      backend: BACKEND,
      config: loadConfig(),
      repoConfig: DEFAULT_REPO_CONFIG,
      makeRuntime: (sandbox, where) => createPythonRuntime(sandbox, where),
      wallClockMs: timeoutMs,
    });
    const ms = Math.round(performance.now() - started);
    const proposed = result.status === "fixed" ? result.patches[0] : undefined;
    const correct = proposed ? await isCorrect(bug, proposed.diff) : false;
    return {
      ...base,
      status: result.status,
      plausible: proposed !== undefined,
      correct,
      broken: proposed?.brokenTests.length ?? 0,
      experiments: result.steps.length,
      ms,
      ...(result.status === "error" ? { error: result.reason } : {}),
    };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const ms = Math.round(performance.now() - started);
    return {
      ...base,
      status: "crashed",
      plausible: false,
      correct: false,
      broken: 0,
      experiments: 0,
      ms,
      error,
    };
  }
}

const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

const repairBench: Benchmark = {
  name: "repair",
  description: `offline engine over the bug corpus (${BACKEND} sandbox): plausible/correct per mutator, time and experiments per bug`,
  async run({ subset, timeoutMs }: BenchOptions): Promise<BenchResult> {
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const bugs = await loadBugs({ subset });
    const outcomes: BugOutcome[] = [];
    for (const bug of bugs) {
      const outcome = await repairBug(bug, timeoutMs);
      outcomes.push(outcome);
      process.stderr.write(
        `repair: ${bug.id}: ${outcome.status}${outcome.correct ? " (correct)" : ""}, ${outcome.experiments} experiments, ${(outcome.ms / 1000).toFixed(1)} s${outcome.error ? ` — ${outcome.error}` : ""}\n`,
      );
    }
    const rows: BenchResult["rows"] = [{ metric: "bugs", value: outcomes.length }];
    const mutators = [...new Set(outcomes.map((o) => o.mutator))];
    for (const m of mutators) {
      const of = outcomes.filter((o) => o.mutator === m);
      rows.push({
        metric: `${m}: plausible / correct`,
        value: `${of.filter((o) => o.plausible).length} / ${of.filter((o) => o.correct).length} of ${of.length}`,
      });
    }
    const reversible = outcomes.filter((o) => o.reversible);
    const reversiblePlausible = reversible.filter((o) => o.plausible).length;
    rows.push(
      {
        metric: "template-reversible bugs fixed plausibly",
        value: pct(reversiblePlausible, reversible.length),
        unit: `% (${reversiblePlausible} of ${reversible.length})`,
        target: ">= 60",
      },
      {
        metric: "all bugs fixed plausibly",
        value: pct(outcomes.filter((o) => o.plausible).length, outcomes.length),
        unit: "%",
      },
      {
        metric: "all bugs fixed correctly",
        value: pct(outcomes.filter((o) => o.correct).length, outcomes.length),
        unit: "%",
      },
      {
        metric: "proposed patches breaking a passing test",
        value: outcomes.filter((o) => o.broken > 0).length,
        target: "0",
      },
      {
        metric: "median time per bug",
        value: Math.round(median(outcomes.map((o) => o.ms)) / 100) / 10,
        unit: "s",
      },
      { metric: "median experiments per bug", value: median(outcomes.map((o) => o.experiments)) },
      {
        metric: "mean experiments per bug",
        value:
          Math.round((10 * outcomes.reduce((s, o) => s + o.experiments, 0)) / Math.max(1, outcomes.length)) /
          10,
      },
      {
        metric: "errors",
        value: outcomes.filter((o) => o.status === "error" || o.status === "crashed").length,
      },
    );
    return { rows, data: { backend: BACKEND, outcomes } };
  },
};

export default repairBench;
