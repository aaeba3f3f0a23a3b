import { patchSignals, type FixedLine, type ObservedTest, type PatchSignal } from "../audit/signals/index.js";
import { lineMap, rewrittenLines } from "../audit/signals/line-map.js";
import type { Candidate, FileEdit, Validation } from "../debug/types.js";
import type { CoverageReport, FailureEvidence, Runtime } from "../lang/types.js";
import type { Audit } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";
import { orderCandidates } from "./rank.js";

/** Rewritten lines whose values are observed, at most; passing instances of the failing test observed beside it. */
const MAX_LINES = 4;
const MAX_INSTANCES = 2;

type Probes = FailureEvidence["probes"] | undefined;

/** What one candidate's signals are measured from: the suite's coverage with it, and its fixed lines' values. */
export interface Measured {
  coverage: CoverageReport | { missing: string };
  observed: { lines: FixedLine[]; tests: ObservedTest[] };
}

export interface MeasureOptions {
  sandbox: Sandbox;
  runtime: Runtime;
  suiteIds: string[] | undefined;
  timeoutMs: number;
  /** The suite's coverage before any patch (its outcomes say which tests passed). */
  before: CoverageReport;
  failingTests: string[];
  /** The limit of one experiment's run of one test (the evidence at the fixed lines). */
  experimentTimeoutMs: number;
  /**
   * The tests a run with these edits must cover (pipeline/reach.ts), undefined for the whole
   * suite: the others ran none of the changed code, so they keep what they ran before (`before`,
   * its lines moved where the patch moved them).
   */
  scope?: (edits: FileEdit[]) => string[] | undefined;
}

/** The lines a candidate rewrites (a condition, a return...), where they are on each side. */
export function fixedLines(candidate: Candidate): FixedLine[] {
  return candidate.edits
    .flatMap((e) =>
      rewrittenLines(e.before, e.after).map((r) => ({
        file: e.file,
        before: r.oldIndex + 1,
        after: r.nowIndex + 1,
        condition: /^\s*(?:(?:el)?if|while)\b/.test(r.now),
      })),
    )
    .slice(0, MAX_LINES);
}

/** The first failing test and a few of its instances that passed before (same test, other parameters). */
export function observedTests(
  failingTests: string[],
  before: CoverageReport,
): { test: string; failing: boolean }[] {
  const first = failingTests[0];
  if (!first) return [];
  const bracket = first.indexOf("[");
  const instances =
    bracket < 0
      ? []
      : Object.keys(before.outcomes)
          .filter((id) => id.startsWith(first.slice(0, bracket + 1)) && !failingTests.includes(id))
          .filter((id) => before.outcomes[id] === "passed")
          .slice(0, MAX_INSTANCES);
  return [{ test: first, failing: true }, ...instances.map((test) => ({ test, failing: false }))];
}

/**
 * Measures candidates for their signals, each with the patch applied (the tree is restored):
 * the suite's coverage, and the evidence helper's values at the rewritten lines in the failing
 * test and its passing instances. The values before any patch are read once per set of lines.
 */
export function measurer(options: MeasureOptions): (candidate: Candidate) => Promise<Measured> {
  const { sandbox, runtime } = options;
  const tests = observedTests(options.failingTests, options.before);
  const baseRuns = new Map<string, Promise<Probes[]>>();
  const probes = (lines: { file: string; line: number }[]): Promise<Probes[]> =>
    Promise.all(
      tests.map(async (t) =>
        lines.length === 0
          ? undefined
          : (
              await runtime
                .evidence(t.test, { lines, timeoutMs: options.experimentTimeoutMs })
                .catch(() => undefined)
            )?.probes,
      ),
    );
  return async (candidate) => {
    const lines = fixedLines(candidate);
    const key = JSON.stringify(lines.map((l) => [l.file, l.before]));
    if (!baseRuns.has(key)) baseRuns.set(key, probes(lines.map((l) => ({ file: l.file, line: l.before }))));
    const base = await baseRuns.get(key)!;
    const snapshot = await sandbox.snapshot();
    let coverage: Measured["coverage"];
    let patched: Probes[] = [];
    try {
      for (const e of candidate.edits) await sandbox.writeFile(e.file, e.after);
      const scoped = options.scope?.(candidate.edits);
      coverage = await runtime
        .coverage(scoped ?? options.suiteIds, { timeoutMs: options.timeoutMs })
        .then((after) => (scoped ? carriedOver(options.before, after, candidate.edits) : after))
        .catch((err: unknown) => ({
          missing: `the coverage run with the patch failed: ${err instanceof Error ? err.message : String(err)}`,
        }));
      patched = await probes(lines.map((l) => ({ file: l.file, line: l.after })));
    } finally {
      await sandbox.restore(snapshot);
    }
    return {
      coverage,
      observed: { lines, tests: tests.map((t, i) => ({ ...t, base: base[i], patched: patched[i] })) },
    };
  };
}

/** A candidate's signals from what was measured with it (and the audit, once it ran). */
export function signalsOf(input: {
  candidate: Candidate;
  failingTests: string[];
  before: CoverageReport;
  measured: Measured;
  audit?: Audit;
}): PatchSignal[] {
  const { candidate, measured } = input;
  const after = measured.coverage;
  return patchSignals({
    changes: candidate.edits.map((e) => ({ path: e.file, before: e.before, after: e.after })),
    failingTests: input.failingTests,
    ...("missing" in after
      ? { coverageMissing: after.missing }
      : { coverage: { before: input.before, after } }),
    ...(input.audit ? { audit: input.audit } : {}),
    observed: measured.observed,
  });
}

/** Validated candidates whose signals are measured to rank them, at most. */
const MAX_RANKED = 3;

interface Found {
  candidate: Candidate;
  validation: Validation;
}

/**
 * The validated candidate to propose, ranked by their signals (rank.ts): with several, each
 * of the first few is measured with it applied. Returns what was measured, so the chosen
 * one's signals need no second run.
 */
export async function chooseCandidate<T extends Found>(
  options: MeasureOptions,
  measure: (candidate: Candidate) => Promise<Measured>,
  plausible: T[],
): Promise<{ chosen: T | undefined; order: T[]; measured: Map<T, Measured> }> {
  const measured = new Map<T, Measured>();
  if (plausible.length <= 1) return { chosen: plausible[0], order: plausible, measured };
  const ranked: { item: T; signals: PatchSignal[] }[] = [];
  for (const found of plausible.slice(0, MAX_RANKED)) {
    const m = await measure(found.candidate);
    measured.set(found, m);
    ranked.push({
      item: found,
      signals: signalsOf({
        candidate: found.candidate,
        failingTests: options.failingTests,
        before: options.before,
        measured: m,
      }),
    });
  }
  // Those not measured follow in the engine's order.
  const order = [...orderCandidates(ranked), ...plausible.slice(MAX_RANKED)];
  return { chosen: order[0], order, measured };
}

/** A scoped coverage run completed with the baseline's record of every test it did not run. */
function carriedOver(before: CoverageReport, after: CoverageReport, edits: FileEdit[]): CoverageReport {
  const maps = new Map(edits.map((e) => [e.file, lineMap(e.before, e.after)] as const));
  const perTest = { ...after.perTest };
  const outcomes = { ...after.outcomes };
  for (const [test, files] of Object.entries(before.perTest)) {
    if (test in perTest) continue;
    perTest[test] = Object.fromEntries(
      Object.entries(files).map(([file, lines]) => {
        const map = maps.get(file);
        return [file, map ? lines.flatMap((l) => map(l) ?? []) : lines];
      }),
    );
    const outcome = before.outcomes[test];
    if (outcome) outcomes[test] = outcome;
  }
  const changed = new Set(maps.keys());
  return {
    ...after,
    perTest,
    outcomes,
    functions: [
      ...before.functions.filter((f) => !changed.has(f.file)),
      ...after.functions.filter((f) => changed.has(f.file)),
    ],
  };
}
