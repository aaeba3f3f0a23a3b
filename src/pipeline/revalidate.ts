import type { PathRules } from "../debug/guards.js";
import type { Candidate, Validation } from "../debug/types.js";
import type { Runtime, TestRun } from "../lang/types.js";
import type { Sandbox } from "../sandbox/types.js";
import { makeValidator } from "./validate.js";

export interface RevalidateInput {
  /** A new sandbox over the untouched repository: nothing has run in it yet. */
  freshSandbox: () => Promise<Sandbox>;
  makeRuntime: (sandbox: Sandbox) => Runtime;
  candidate: Candidate;
  baseline: TestRun;
  failing: string[];
  suiteIds: string[] | undefined;
  rules: PathRules;
  timeoutMs: number;
  passedAlone?: string[];
}

/**
 * The chosen patch, validated again in a fresh sandbox before anyone sees it.
 * The warm sandbox ran the repository's tests many times; whatever they left
 * there (files in /tmp, edited snapshots, processes) may have shaped its verdict.
 * A fresh one holds only the repository and the patch, so the verdict it gives
 * rests on what the tests report about this patch alone.
 */
export async function revalidatePhase(input: RevalidateInput): Promise<Validation> {
  const sandbox = await input.freshSandbox();
  try {
    const validate = makeValidator({
      sandbox,
      runtime: input.makeRuntime(sandbox),
      baseline: input.baseline,
      failing: input.failing,
      suiteIds: input.suiteIds,
      rules: input.rules,
      timeoutMs: input.timeoutMs,
      ...(input.passedAlone ? { passedAlone: input.passedAlone } : {}),
    });
    return await validate(input.candidate);
  } finally {
    await sandbox.dispose();
  }
}

/** The warm sandbox's validation, overturned by the fresh one. */
export function overturned(warm: Validation, fresh: Validation): Validation {
  return {
    ...fresh,
    plausible: false,
    rejectedBecause: `passed in the warm sandbox but not in a fresh one: ${fresh.rejectedBecause ?? "a different verdict"}`,
    diff: warm.diff,
  };
}
