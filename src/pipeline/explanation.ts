import { observedCallChanges } from "../audit/test-calls.js";
import type { Candidate, StepRecord } from "../debug/types.js";
import type { FunctionInfo, Runtime } from "../lang/types.js";
import type { Sandbox } from "../sandbox/types.js";

/**
 * What the audit checks the patch against: the claim of the step the patch came from, and the
 * changed functions' results on the failing test's own call before and with the patch (the
 * call recorder's observations, which any engine's patch gets), one paragraph each. A recording
 * that fails only leaves its claim out.
 */
export async function patchExplanation(input: {
  sandbox: Sandbox;
  runtime: Runtime;
  candidate: Candidate;
  step: StepRecord | undefined;
  test: string | undefined;
  functions: FunctionInfo[];
  timeoutMs: number;
}): Promise<string> {
  const { step, test } = input;
  const stated = test
    ? await observedCallChanges({
        sandbox: input.sandbox,
        runtime: input.runtime,
        test,
        edits: input.candidate.edits,
        functions: input.functions,
        timeoutMs: input.timeoutMs,
      }).catch(() => [])
    : [];
  return [step ? (step.claim ?? step.hypothesis) : "", ...stated].filter(Boolean).join("\n\n");
}
