import { z } from "zod";

/** The result.json contract of DESIGN.md. Fields may be added, never renamed. */

/** Who writes hypotheses: the offline engine, or a model (`--engine`, result.json's `engine`). */
export const engineKindSchema = z.enum(["offline", "llm"]);
export type EngineKind = z.infer<typeof engineKindSchema>;
/** Every engine kind, for option lists. */
export const ENGINE_KINDS = engineKindSchema.options;
export const localizationEntrySchema = z.object({
  rank: z.number().int().positive(),
  file: z.string(),
  function: z.string(),
  line: z.number().int().positive().optional(),
  score: z.number(),
  reason: z.string(),
});

export const conclusionSchema = z.enum(["supported", "rejected", "undecided"]);

export const stepSchema = z.object({
  hypothesis: z.string(),
  prediction: z.string(),
  experiment: z.string(),
  observation: z.string(),
  conclusion: conclusionSchema,
  done: z.boolean(),
  /** `probe`: gathers an observation and tests no hypothesis (the report says "observed");
   * `test`: a hypothesis whose prediction the experiment checks. Absent: `test`. */
  role: z.enum(["probe", "test"]).optional(),
  /** The observation that explains the bug; the report leads with it. */
  decisive: z.boolean().optional(),
});

export const patchSchema = z.object({
  diff: z.string(),
  plausible: z.boolean(),
  testsRun: z.number().int().nonnegative(),
  testsFailed: z.number().int().nonnegative(),
  fromStep: z.number().int().nonnegative().optional(),
  /** Tests that passed before the patch and fail after it. */
  brokenTests: z.array(z.string()).default([]),
  /** Why the candidate was not proposed (guard rail, does not apply, ...). */
  rejectedBecause: z.string().optional(),
});

export const claimSchema = z.object({
  text: z.string(),
  evidence: z.string(),
  verdict: z.enum(["confirmed", "contradicted", "unverified"]),
  revised: z.string().optional(),
});

export const behaviourChangeSchema = z.object({
  kind: z.enum(["test", "call"]),
  /** Test id, or `module.function(args)` of a replayed call. */
  subject: z.string(),
  before: z.string(),
  after: z.string(),
  /** Calls: the changed function (`file::qualname`) called. */
  function: z.string().optional(),
  /** Calls: the test during which the call was recorded. */
  test: z.string().optional(),
});

export const auditSchema = z.object({
  claims: z.array(claimSchema),
  behaviourChanges: z.array(behaviourChangeSchema),
  /** Changed functions that no test and no recorded call reaches. */
  unverified: z.array(z.string()).default([]),
  notes: z.array(z.string()).default([]),
  /** Calls of the changed functions the differential run recorded (and replayed on both sides). */
  recordedCalls: z.number().int().nonnegative().optional(),
});

/** A signal that tells a correct patch from a plausible one (src/audit/signals/): tripped, with its evidence. */
export const signalSchema = z.object({
  id: z.enum(["code-silenced", "condition", "beyond-failing-tests", "decisive-observation"]),
  name: z.string(),
  measured: z.boolean(),
  tripped: z.boolean(),
  value: z.string(),
  evidence: z.string(),
});

/**
 * `fixed`: every targeted failing test passes with the patch; `partial`: a patch makes some of
 * them pass (`partialFix` says which) and breaks nothing, and is never proposed as a fix.
 */
export const statusSchema = z.enum(["fixed", "partial", "no-fix", "not-reproduced", "flaky", "error"]);

export const resultSchema = z.object({
  status: statusSchema,
  /** One line for humans: why this status. */
  reason: z.string().default(""),
  failingTests: z.array(z.string()),
  /**
   * The reproduced failure's signature: a hash of the failing tests' ids with each one's error
   * type and message. The App answers one signature once per repository (no second review or
   * pull request for the same failure).
   */
  failureSignature: z.string().optional(),
  localization: z.array(localizationEntrySchema),
  steps: z.array(stepSchema),
  patches: z.array(patchSchema),
  confidence: z.object({
    done: z.boolean(),
    reproduced: z.boolean(),
    suitePasses: z.boolean(),
    localizationAgreement: z.number().min(0).max(1),
    audit: z.enum(["confirmed", "contradicted", "not-run"]),
  }),
  audit: auditSchema,
  /** The proposed patch's signals (code silenced, conditions, behaviour beyond the failing tests). */
  signals: z.array(signalSchema).optional(),
  timings: z.record(z.string(), z.number().nonnegative()),
  usage: z.object({
    llmCalls: z.number().int().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
  }),
  engine: engineKindSchema.default("offline"),
  /** Status `partial`: the failing tests the patch makes pass and those it leaves failing (`failingTests` is both). */
  partialFix: z.object({ fixes: z.array(z.string()), stillFailing: z.array(z.string()) }).optional(),
  /** The maintainer's `/fix <text>`: `used` when the engine was given it (the llm engine's prompt); the offline engine cannot use it. */
  constraint: z.object({ text: z.string(), used: z.boolean() }).optional(),
  /** Tests that failed in the suite but are not failures to fix (status `flaky`): why, and after which test. */
  flaky: z
    .array(
      z.object({
        test: z.string(),
        /**
         * `intermittent`: passed on some reruns (alone, or after the tests before it).
         * `order-dependent` (results of older versions): failed after `precededBy` and passed
         * alone; such a failure is now reproduced and repaired (`orderDependent`).
         */
        kind: z.enum(["intermittent", "order-dependent"]),
        precededBy: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * Failing tests that pass alone and fail, on every rerun, after the tests `precededBy` (the
   * fewest of the tests the suite ran before them, in suite order): a deterministic failure
   * every later run of the job reproduced by running those first.
   */
  orderDependent: z.array(z.object({ test: z.string(), precededBy: z.array(z.string()) })).optional(),
  /** Where the tests ran: the backend, and why when it is not the one asked for. */
  sandbox: z
    .object({
      backend: z.enum(["docker", "local"]),
      asked: z.enum(["docker", "local", "auto"]),
      /** Set when `auto` (or a failure) led to another backend than the one asked for. */
      fallback: z.string().optional(),
    })
    .optional(),
  /** The environment the tests ran in (image, language and version, setup), when one was built or reused. */
  environment: z
    .object({
      image: z.string(),
      /** The repository's language (its id: `python`). */
      language: z.string().optional(),
      /** The toolchain version the environment was built on (`3.11`). */
      version: z.string().optional(),
      /** Language and version as people read them: `Python 3.11`. */
      runtime: z.string().optional(),
      /** The Python version, for Python runs: `version`'s first name, kept for readers of older results. */
      python: z.string().optional(),
      /** Reused from an earlier job of the same repository (no build). */
      cached: z.boolean(),
      /** Setup commands run in the build container, as argv lines; empty: none. */
      setup: z.array(z.string()).default([]),
      /** Where the setup came from: the config, or what was detected (e.g. "requirements.txt"). */
      setupSource: z.string().optional(),
      /** The repository's test-runner options set aside because they break the instruments (pytest's `-n auto`). */
      optionsSetAside: z.array(z.string()).optional(),
      /** `optionsSetAside` under its first name, kept for readers of older results. */
      pytestSetAside: z.array(z.string()).default([]),
      /** The test runner whose options those are (`pytest`). */
      testRunner: z.string().optional(),
      /** The working directory tests ran from, relative to the repository root. */
      workingDirectory: z.string().optional(),
    })
    .optional(),
});

export type LocalizationEntry = z.infer<typeof localizationEntrySchema>;
export type Step = z.infer<typeof stepSchema>;
export type Conclusion = z.infer<typeof conclusionSchema>;
export type Patch = z.infer<typeof patchSchema>;
export type Claim = z.infer<typeof claimSchema>;
export type BehaviourChange = z.infer<typeof behaviourChangeSchema>;
export type Audit = z.infer<typeof auditSchema>;
export type Signal = z.infer<typeof signalSchema>;
export type Result = z.infer<typeof resultSchema>;
export type Usage = Result["usage"];

/** A status with a validated patch: `fixed`, or `partial` (some of the failing tests). */
export function hasPatch(status: Result["status"]): boolean {
  return status === "fixed" || status === "partial";
}

export type AuditVerdict = Result["confidence"]["audit"];

/** result.confidence.audit: contradicted when any claim is, confirmed when one is and none is contradicted, else not-run. */
export function auditVerdict(audit: Pick<Audit, "claims">): AuditVerdict {
  if (audit.claims.some((c) => c.verdict === "contradicted")) return "contradicted";
  if (audit.claims.some((c) => c.verdict === "confirmed")) return "confirmed";
  return "not-run";
}
