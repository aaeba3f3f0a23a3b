import { createTwoFilesPatch } from "diff";
import { forbiddenPath, type PathRules } from "../debug/guards.js";
import type { Candidate, FileEdit, Validation } from "../debug/types.js";
import type { Runtime, TestRun } from "../lang/types.js";
import type { Sandbox } from "../sandbox/types.js";
import { firstLine, isFailure } from "./reproduce.js";

/** How many broken tests' failures a validation keeps, and how much of each. */
const BROKEN_SHOWN = 3;
const BROKEN_TEXT = 1500;

/** The unified diff of a candidate's edits. */
export function candidateDiff(edits: FileEdit[]): string {
  return edits
    .map((e) =>
      createTwoFilesPatch(`a/${e.file}`, `b/${e.file}`, e.before, e.after, undefined, undefined, {
        context: 3,
      }).replace(/^=+\n/, ""),
    )
    .join("");
}

/**
 * A candidate is plausible when the failing tests pass with it and no test that
 * passed in the baseline fails. Each candidate is tried on the sandbox's tree and
 * the tree is restored afterwards.
 */
export function makeValidator(options: {
  sandbox: Sandbox;
  runtime: Runtime;
  baseline: TestRun;
  failing: string[];
  suiteIds: string[] | undefined;
  rules: PathRules;
  timeoutMs: number;
  /**
   * Failing tests that passed alone and fail only after other tests (order-dependent): a patch
   * must keep them passing alone too, or it only moved the failure.
   */
  passedAlone?: string[];
  /**
   * The tests a candidate's edits can affect (pipeline/reach.ts), undefined for the whole suite:
   * the others run none of the changed code, so they keep their baseline outcome. Absent: every
   * candidate runs the whole suite (the fresh revalidation does).
   */
  scope?: (edits: FileEdit[]) => string[] | undefined;
}): (candidate: Candidate) => Promise<Validation> {
  const { sandbox, runtime, failing, suiteIds, timeoutMs } = options;
  const passedAlone = options.passedAlone ?? [];
  const passedBefore = options.baseline.tests.filter((t) => t.outcome === "passed").map((t) => t.id);
  const failedBefore = options.baseline.tests
    .filter((t) => isFailure(t) && !failing.includes(t.id))
    .map((t) => t.id);
  return async (candidate) => {
    const diff = candidateDiff(candidate.edits);
    const refused = candidate.edits
      .map((e) => forbiddenPath(e.file, options.rules))
      .find((r) => r !== undefined);
    if (refused) {
      return {
        plausible: false,
        testsRun: 0,
        testsFailed: 0,
        brokenTests: [],
        stillFailing: failing,
        rejectedBecause: `refused: ${refused}`,
        diff,
      };
    }
    const snapshot = await sandbox.snapshot();
    try {
      for (const e of candidate.edits) await sandbox.writeFile(e.file, e.after);
      const scoped = options.scope?.(candidate.edits);
      const inScope = new Set([...(scoped ?? []), ...failing]);
      const run = await runtime.runTests(scoped ?? suiteIds, { timeoutMs });
      const extra = failing.filter((id) => !run.tests.some((t) => t.id === id));
      if (extra.length > 0) run.tests.push(...(await runtime.runTests(extra, { timeoutMs })).tests);
      const outcome = new Map(run.tests.map((t) => [t.id, t.outcome]));
      // Out of scope, a test keeps its baseline outcome; in it (or on the whole suite), it must have run.
      const ran = (id: string) => scoped === undefined || inScope.has(id);
      const stillFailing = failing.filter((id) => outcome.get(id) !== "passed");
      const brokenTests = passedBefore.filter((id) => ran(id) && outcome.get(id) !== "passed");
      const failAlone: string[] = [];
      for (const id of passedAlone) {
        const solo = await runtime.runTests([id], { timeoutMs, before: [] });
        if (!solo.tests.some((t) => t.id === id && t.outcome === "passed")) failAlone.push(id);
      }
      brokenTests.push(...failAlone);
      const otherFailures = failedBefore.filter((id) => !ran(id) || outcome.get(id) !== "passed");
      const rejectedBecause = rejection(run, stillFailing, brokenTests, failAlone);
      const failures = (ids: string[]) =>
        ids.slice(0, BROKEN_SHOWN).map((id) => {
          const failure = run.tests.find((t) => t.id === id)?.failure;
          const text = failure ? failure.text || `${failure.type}: ${failure.message}` : "(did not run)";
          return { id, text: text.slice(0, BROKEN_TEXT) };
        });
      const brokenFailures = failures(brokenTests);
      const stillFailures = failures(stillFailing);
      return {
        plausible: rejectedBecause === undefined,
        testsRun: run.tests.length,
        testsFailed: run.tests.filter(isFailure).length,
        ...(scoped ? { scoped: true } : {}),
        brokenTests,
        ...(brokenFailures.length > 0 ? { brokenFailures } : {}),
        stillFailing,
        ...(stillFailures.length > 0 ? { stillFailures } : {}),
        otherFailures,
        ...(rejectedBecause ? { rejectedBecause } : {}),
        diff,
      };
    } finally {
      await sandbox.restore(snapshot);
    }
  };
}

function rejection(
  run: TestRun,
  stillFailing: string[],
  brokenTests: string[],
  failAlone: string[],
): string | undefined {
  if (run.timedOut) return "the suite timed out with the patch";
  if (run.errors.length > 0 && run.tests.length === 0)
    return `the suite does not run with the patch: ${firstLine(run.errors[0]!)}`;
  if (stillFailing.length > 0)
    return `${stillFailing.join(", ")} still fail${stillFailing.length === 1 ? "s" : ""}`;
  if (failAlone.length > 0)
    return `${failAlone.join(", ")} passed alone before and fail${failAlone.length === 1 ? "s" : ""} alone with the patch`;
  if (brokenTests.length > 0) return `breaks ${brokenTests.length} test(s) that passed before`;
  return undefined;
}
