import type { CoverageReport } from "../../lang/types.js";
import type { Audit } from "../../result.js";
import type { FileChange } from "../types.js";
import { beyondFailingTests } from "./beyond-failing.js";
import { conditionSubject } from "./condition.js";
import { decisiveObservation, type FixedLine, type ObservedTest } from "./decisive.js";
import { codeSilenced } from "./silenced.js";
import { notMeasured, type PatchSignal } from "./types.js";

export type { PatchSignal } from "./types.js";
export { codeSilenced } from "./silenced.js";
export { conditionSubject } from "./condition.js";
export { beyondFailingTests } from "./beyond-failing.js";
export { decisiveObservation, type FixedLine, type ObservedTest } from "./decisive.js";

/**
 * Every signal of one patch, from what was measured: the suite's coverage before and with it,
 * the audit's replayed calls, the fixed lines' values in the failing test, and the patch's text. Pure; the pipeline runs the measurements.
 */
export function patchSignals(input: {
  changes: FileChange[];
  failingTests: string[];
  coverage?: { before: CoverageReport; after: CoverageReport };
  /** Why coverage with the patch is missing, when it is. */
  coverageMissing?: string;
  audit?: Audit;
  /** What the fixed lines computed during the failing test (and its passing instances), on base and with the patch. */
  observed?: { lines: FixedLine[]; tests: ObservedTest[] };
}): PatchSignal[] {
  const { changes, failingTests, coverage, audit } = input;
  return [
    coverage
      ? codeSilenced({ ...coverage, failingTests, changes })
      : notMeasured(
          "code-silenced",
          input.coverageMissing ?? "the suite's coverage with the patch was not measured",
        ),
    conditionSubject(changes),
    beyondFailingTests({
      changes: audit?.behaviourChanges,
      failingTests,
      callsRecorded: (audit?.recordedCalls ?? 0) > 0,
    }),
    input.observed
      ? decisiveObservation(input.observed)
      : notMeasured("decisive-observation", "the failing test's values at the fixed line were not observed"),
  ];
}
