import type { BehaviourChange } from "../../result.js";
import { clip, codeSpan as q } from "../../text.js";
import { measured, notMeasured, type PatchSignal } from "./types.js";

/** Calls listed in the evidence, at most. */
const MAX_CALLS = 3;

/**
 * Behaviour change beyond the failing tests: recorded calls of the changed functions whose
 * result differs with the patch, on inputs no failing test used. A right fix changes what the
 * failing tests' inputs give; a patch that also changes what other inputs give (a search that
 * now always finds, a recursion that no longer ends) changes behaviour nobody asked for, even
 * when no test checks it. Calls with the same arguments as a failing test's are the fix itself.
 */
export function beyondFailingTests(input: {
  /** The audit's behaviour changes (calls replayed on both sides), or undefined when it did not run. */
  changes: BehaviourChange[] | undefined;
  failingTests: string[];
  /** Whether the audit recorded any call of the changed functions at all. */
  callsRecorded: boolean;
}): PatchSignal {
  const id = "beyond-failing-tests";
  if (!input.changes || !input.callsRecorded) {
    return notMeasured(
      id,
      input.changes
        ? "no call of the changed functions was recorded, so none could be replayed"
        : "the audit did not run",
    );
  }
  const calls = input.changes.filter((c) => c.kind === "call");
  const ownInputs = new Set(
    calls.filter((c) => c.test !== undefined && input.failingTests.includes(c.test)).map((c) => c.subject),
  );
  const beyond = calls.filter(
    (c) => c.test !== undefined && !input.failingTests.includes(c.test) && !ownInputs.has(c.subject),
  );
  if (beyond.length === 0) {
    return measured(
      id,
      false,
      "none",
      calls.length > 0
        ? `the ${calls.length} recorded call${calls.length === 1 ? "" : "s"} whose result changed came from the failing tests`
        : "no recorded call of the changed functions gives another result with the patch",
    );
  }
  const shown = beyond
    .slice(0, MAX_CALLS)
    .map(
      (c) =>
        `${q(clip(c.subject, 80))} gave ${q(clip(c.before, 60))} before and ${q(clip(c.after, 60))} with the patch (in ${q(c.test!)})`,
    );
  const more = beyond.length > MAX_CALLS ? `; and ${beyond.length - MAX_CALLS} more` : "";
  return measured(
    id,
    true,
    `${beyond.length} call${beyond.length === 1 ? "" : "s"} changed on other inputs`,
    `${shown.join("; ")}${more}`,
  );
}
