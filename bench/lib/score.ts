/** The one scorer of repairs over the bug corpora. A bug is fixed **correctly** when the
 * engine proposed a patch that touches no test file, applies to a fresh buggy copy, makes the
 * visible suite pass and the held-out tests (never shown to the engine) pass too. Everything
 * else counts as not correct, errors and timeouts included: a bug whose run failed is a
 * failure, never left out. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch, parsePatch } from "diff";
import { isTestFile } from "../../src/lang/python/test-files.js";
import type { Result } from "../../src/result.js";
import { patchFilePath } from "../corpus-tools/corpus-v2.js";
import type { BenchBug, BugGroup } from "./bugs.js";
import { runPytest } from "./pytest.js";
import { median } from "./stats.js";

export interface Score {
  /** Every hunk applied to a fresh buggy copy. */
  applied: boolean;
  /** Test files the patch changes (any makes it not correct). */
  touchedTests: string[];
  /** The visible suite passes with the patch. */
  plausible: boolean;
  correct: boolean;
  /** Visible tests failing with the patch. */
  visibleFailing: string[];
  /** Held-out tests failing; only run when plausible. */
  heldoutFailing: string[];
  /** Patch problems, collection errors, timeouts, unexpected pytest exits. */
  errors: string[];
}

/** Files a unified diff changes (both names of each file patch), without `a/` `b/`. */
export function patchedFiles(diff: string): string[] {
  const names = parsePatch(diff).flatMap((p) => [p.oldFileName, p.newFileName]);
  return [
    ...new Set(names.filter((n): n is string => n !== undefined && n !== "/dev/null").map(stripPrefix)),
  ];
}

const stripPrefix = (name: string) => name.replace(/^[ab]\//, "");

/** What a suite run says, whatever the language's runner. */
export interface SuiteOutcome {
  failing: string[];
  errors: string[];
  timedOut: boolean;
  exitCode: number | null;
}

function problems(run: SuiteOutcome, what: string): string[] {
  return [...(run.timedOut ? [`${what} timed out`] : []), ...run.errors.map((e) => `${what}: ${e}`)];
}

/** How a corpus of one language is scored: its test-file rule, a fresh buggy copy, its suites. */
export interface ScoringPlan {
  id: string;
  isTestFile(file: string): boolean;
  /** The repository-relative path a file patch names; throws, with the reason, if it leaves the copy. */
  patchPath(name: string): string;
  materialize(dest: string): Promise<string>;
  runVisible(dir: string): Promise<SuiteOutcome>;
  runWithHeldout(dir: string): Promise<SuiteOutcome>;
}

const notApplied = (touchedTests: string[], errors: string[]): Score => ({
  applied: false,
  touchedTests,
  plausible: false,
  correct: false,
  visibleFailing: [],
  heldoutFailing: [],
  errors,
});

/** Applies `diff` to a fresh buggy copy and runs the visible suite, then the held-out tests too.
 * A patch that touches a test file is scored (for the record) but never correct. */
export async function scoreWith(plan: ScoringPlan, diff: string): Promise<Score> {
  const touchedTests = patchedFiles(diff).filter((f) => plan.isTestFile(f));
  const filePatches = parsePatch(diff).filter((p) => p.hunks.length > 0);
  if (filePatches.length === 0) return notApplied(touchedTests, ["the patch changes nothing"]);
  const scratch = await mkdtemp(join(tmpdir(), `score-${plan.id}-`));
  try {
    const dir = await plan.materialize(join(scratch, "project"));
    for (const filePatch of filePatches) {
      let file: string;
      try {
        file = plan.patchPath(filePatch.oldFileName ?? "");
      } catch (err) {
        return notApplied(touchedTests, [err instanceof Error ? err.message : String(err)]);
      }
      const before = await readFile(join(dir, file), "utf8").catch(() => undefined);
      const patched = before === undefined ? false : applyPatch(before, filePatch);
      if (patched === false) return notApplied(touchedTests, [`the patch does not apply to ${file}`]);
      await writeFile(join(dir, file), patched);
    }
    const visible = await plan.runVisible(dir);
    const errors = problems(visible, "visible suite");
    const plausible = errors.length === 0 && visible.failing.length === 0 && visible.exitCode === 0;
    const base = { applied: true, touchedTests, plausible, visibleFailing: visible.failing };
    if (!plausible) return { ...base, correct: false, heldoutFailing: [], errors };
    const heldout = await plan.runWithHeldout(dir);
    const heldoutErrors = problems(heldout, "held-out tests");
    const heldoutPass = heldoutErrors.length === 0 && heldout.failing.length === 0 && heldout.exitCode === 0;
    return {
      ...base,
      correct: heldoutPass && touchedTests.length === 0,
      heldoutFailing: heldout.failing,
      errors: heldoutErrors,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A Python corpus bug's patch, scored with pytest. */
export function scorePatch(
  bug: BenchBug,
  diff: string,
  options: { timeoutMs?: number } = {},
): Promise<Score> {
  return scoreWith(
    {
      id: bug.id,
      isTestFile,
      patchPath: patchFilePath,
      materialize: (dest) => bug.materialize(dest),
      runVisible: (dir) => runPytest(dir, [], options),
      runWithHeldout: async (dir) => runPytest(dir, [await bug.addHeldout(dir)], options),
    },
    diff,
  );
}

/** How one bug's run ended, as the benchmark tallies it. Only `correct` counts as a fix. */
export const VERDICTS = [
  "correct",
  /** Visible suite passes, held-out tests fail: the patch fits the visible tests only. */
  "overfit",
  /** The proposed patch does not make the visible suite pass when re-run from scratch. */
  "implausible",
  "touches-tests",
  "does-not-apply",
  "no-fix",
  /** The patch makes some of the failing tests pass, not all: reported, not a fix. */
  "partial",
  /** The engine did not see the failure (not reproduced, or flaky). */
  "not-reproduced",
  "error",
  "timeout",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What the engine's run ended with: result.json's status, or the bench's own failure modes. */
export type RunStatus = Result["status"] | "crashed" | "timeout";

/** The verdict of a run whose proposed patch (for `fixed`) was scored as `score`. */
export function verdictOf(status: RunStatus, score?: Score): Verdict {
  switch (status) {
    case "timeout":
      return "timeout";
    case "error":
    case "crashed":
      return "error";
    case "no-fix":
      return "no-fix";
    case "partial":
      return "partial";
    case "not-reproduced":
    case "flaky":
      return "not-reproduced";
    case "fixed":
      if (score === undefined) return "error";
      if (score.touchedTests.length > 0) return "touches-tests";
      if (!score.applied) return "does-not-apply";
      if (score.correct) return "correct";
      return score.plausible ? "overfit" : "implausible";
  }
}

/** One bug's run, as recorded in bench/results/repair.json. */
export interface RepairOutcome {
  id: string;
  group: BugGroup;
  shape: string;
  verdict: Verdict;
  /** result.json's steps (one experiment each). */
  experiments: number;
  ms: number;
  error?: string;
}

export interface GroupTally {
  bugs: number;
  correct: number;
  verdicts: Partial<Record<Verdict, number>>;
  medianMs: number;
  medianExperiments: number;
  /** Per bug shape: bugs and correct fixes, shapes in first-seen order. */
  shapes: Record<string, { bugs: number; correct: number }>;
}

/** Tallies outcomes per group; every outcome counts in its group's denominator. */
export function tally(outcomes: readonly RepairOutcome[]): Partial<Record<BugGroup, GroupTally>> {
  const groups: Partial<Record<BugGroup, GroupTally>> = {};
  for (const group of new Set(outcomes.map((o) => o.group))) {
    const of = outcomes.filter((o) => o.group === group);
    const verdicts: Partial<Record<Verdict, number>> = {};
    const shapes: GroupTally["shapes"] = {};
    for (const o of of) {
      verdicts[o.verdict] = (verdicts[o.verdict] ?? 0) + 1;
      const s = (shapes[o.shape] ??= { bugs: 0, correct: 0 });
      s.bugs += 1;
      if (o.verdict === "correct") s.correct += 1;
    }
    groups[group] = {
      bugs: of.length,
      correct: verdicts.correct ?? 0,
      verdicts,
      medianMs: median(of.map((o) => o.ms)),
      medianExperiments: median(of.map((o) => o.experiments)),
      shapes,
    };
  }
  return groups;
}
