import { patchSignals, type PatchSignal } from "../audit/signals/index.js";
import type { Candidate, Validation } from "../debug/types.js";
import type { CoverageReport, Runtime } from "../lang/types.js";
import type { Audit } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";
import { rankCandidates } from "./rank.js";

/** The suite's coverage with a candidate applied (the tree is restored), or why it could not be measured. */
export async function coverageWith(
  options: { sandbox: Sandbox; runtime: Runtime; suiteIds: string[] | undefined; timeoutMs: number },
  candidate: Candidate,
): Promise<CoverageReport | { missing: string }> {
  const { sandbox, runtime } = options;
  const snapshot = await sandbox.snapshot();
  try {
    for (const e of candidate.edits) await sandbox.writeFile(e.file, e.after);
    return await runtime.coverage(options.suiteIds, { timeoutMs: options.timeoutMs });
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
  options: Parameters<typeof coverageWith>[0] & { before: CoverageReport; failingTests: string[] },
  plausible: T[],
): Promise<{ chosen: T | undefined; measured: Map<T, CoverageReport | { missing: string }> }> {
  const measured = new Map<T, CoverageReport | { missing: string }>();
  if (plausible.length <= 1) return { chosen: plausible[0], measured };
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
  return { chosen: rankCandidates(ranked), measured };
}
