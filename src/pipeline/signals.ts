import { patchSignals, type PatchSignal } from "../audit/signals/index.js";
import { lineMap } from "../audit/signals/line-map.js";
import type { Candidate, FileEdit, Validation } from "../debug/types.js";
import type { CoverageReport, Runtime } from "../lang/types.js";
import type { Audit } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";
import { orderCandidates } from "./rank.js";

/**
 * The suite's coverage with a candidate applied (the tree is restored), or why it could not be
 * measured. With `scope`, only the tests reaching the change run; the others ran none of the
 * changed code, so they keep what they ran before (`before`, its lines moved where the patch
 * moved them).
 */
export async function coverageWith(
  options: {
    sandbox: Sandbox;
    runtime: Runtime;
    suiteIds: string[] | undefined;
    timeoutMs: number;
    before: CoverageReport;
    scope?: (edits: FileEdit[]) => string[] | undefined;
  },
  candidate: Candidate,
): Promise<CoverageReport | { missing: string }> {
  const { sandbox, runtime } = options;
  const snapshot = await sandbox.snapshot();
  try {
    for (const e of candidate.edits) await sandbox.writeFile(e.file, e.after);
    const tests = options.scope?.(candidate.edits);
    const after = await runtime.coverage(tests ?? options.suiteIds, { timeoutMs: options.timeoutMs });
    return tests ? carriedOver(options.before, after, candidate.edits) : after;
  } catch (err) {
    return {
      missing: `the coverage run with the patch failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    await sandbox.restore(snapshot);
  }
}

/** A candidate's signals from the coverage before and with it (and the audit, once it ran). */
export function signalsOf(input: {
  candidate: Candidate;
  failingTests: string[];
  before: CoverageReport;
  after: CoverageReport | { missing: string };
  audit?: Audit;
}): PatchSignal[] {
  const { candidate, after } = input;
  return patchSignals({
    changes: candidate.edits.map((e) => ({ path: e.file, before: e.before, after: e.after })),
    failingTests: input.failingTests,
    ...("missing" in after
      ? { coverageMissing: after.missing }
      : { coverage: { before: input.before, after } }),
    ...(input.audit ? { audit: input.audit } : {}),
  });
}

/** Validated candidates whose signals are measured to rank them, at most (one coverage run each). */
const MAX_RANKED = 3;

interface Found {
  candidate: Candidate;
  validation: Validation;
}

/**
 * The validated candidate to propose, ranked by their signals (rank.ts): with several, each
 * of the first few gets a coverage run with it applied. Returns the coverage measured, so the
 * chosen one's signals need no second run.
 */
export async function chooseCandidate<T extends Found>(
  options: Parameters<typeof coverageWith>[0] & { failingTests: string[] },
  plausible: T[],
): Promise<{ chosen: T | undefined; order: T[]; measured: Map<T, CoverageReport | { missing: string }> }> {
  const measured = new Map<T, CoverageReport | { missing: string }>();
  if (plausible.length <= 1) return { chosen: plausible[0], order: plausible, measured };
  const ranked: { item: T; signals: PatchSignal[] }[] = [];
  for (const found of plausible.slice(0, MAX_RANKED)) {
    const after = await coverageWith(options, found.candidate);
    measured.set(found, after);
    ranked.push({
      item: found,
      signals: signalsOf({
        candidate: found.candidate,
        failingTests: options.failingTests,
        before: options.before,
        after,
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
