import { createTwoFilesPatch } from "diff";
import type { Runtime } from "../lang/types.js";
import type { ChatModel } from "../llm/types.js";
import { auditVerdict, type Audit, type AuditVerdict, type Claim, type EngineKind } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";
import { changesFromDiff } from "./changes.js";
import { callChange, exampleCheck, exampleTest, moduleNames, parseClaim } from "./claims.js";
import { statedClaims } from "./stated-claims.js";
import {
  runDifferential,
  SCRATCH,
  type DifferentialOptions,
  type DifferentialRuntime,
} from "./differential.js";
import { changedApi, judgeByTest, modelClaims, validateClaimTests, type ModelClaim } from "./llm.js";
import { renderAudit } from "../report/audit.js";
import type { DifferentialReport, FileChange } from "./types.js";
import { behaviourChanges, judgeClaim, revise, unverifiedFunctions } from "./verdicts.js";

export type { DifferentialOptions } from "./differential.js";
export type { DifferentialReport, FileChange } from "./types.js";

export interface AuditPatchInput {
  /** A sandbox whose working tree is the base of the change; it is left at base. */
  sandbox: Sandbox;
  runtime: DifferentialRuntime & Pick<Runtime, "testProblem">;
  /** A unified diff against the sandbox's tree, or whole-file changes. */
  patch: string | FileChange[];
  /**
   * What the explanation claims: one claim per entry (e.g. the debugging log's
   * conclusions), or a whole text (PR description, commit messages) to split.
   */
  claims: string[] | string;
  engine: EngineKind;
  /** Required for the llm engine. */
  model?: ChatModel;
  options?: DifferentialOptions;
  /** Findings of the caller to report with the audit's own (e.g. files it could not compare). */
  notes?: string[];
}

export interface AuditOutcome {
  audit: Audit;
  /** For result.confidence.audit. */
  verdict: AuditVerdict;
  /** renderAudit(audit): the PR body's audit section and the `/explain` reply. */
  markdown: string;
  /** Everything the differential run observed. */
  evidence: DifferentialReport;
}

export function diffOf(changes: FileChange[]): string {
  return changes
    .map((c) =>
      createTwoFilesPatch(
        c.before === null ? "/dev/null" : `a/${c.path}`,
        c.after === null ? "/dev/null" : `b/${c.path}`,
        c.before ?? "",
        c.after ?? "",
      ),
    )
    .join("");
}

/**
 * Audits a change and what is claimed about it: runs the suite and the
 * recorded calls to the changed functions on both sides, gives each claim a
 * verdict with its evidence, and revises the explanation accordingly.
 */
export async function auditPatch(input: AuditPatchInput): Promise<AuditOutcome> {
  const { sandbox, runtime } = input;
  const changes =
    typeof input.patch === "string"
      ? await changesFromDiff(input.patch, (p) => sandbox.readFile(p).catch(() => null))
      : input.patch;
  const given =
    typeof input.claims === "string" ? statedClaims(input.claims) : input.claims.map((c) => c.trim());
  // Only what the explanation states is a claim: that the failing tests now pass is the
  // validation's evidence for the patch (a behaviour change below), not a claim of its own.
  const sentences = given.filter(Boolean);
  const notes: string[] = [...(input.notes ?? [])];

  let modelView: ModelClaim[] | undefined;
  // A stated call change names its own evidence (a recorded call): the replay checks it, not a model's test.
  const calls: ModelClaim[] = sentences.filter((s) => callChange(s)).map((text) => ({ text, kind: "other" }));
  const prose = sentences.filter((s) => !callChange(s));
  if (input.engine === "llm" && prose.length > 0) {
    if (!input.model) throw new Error("auditPatch: the llm engine needs a model");
    try {
      const changed = changes.flatMap((c) =>
        c.after !== null && !runtime.files.isTestFile(c.path) ? [{ path: c.path, after: c.after }] : [],
      );
      const functions = await runtime.functions().catch(() => []);
      const reply = await modelClaims(
        input.model,
        {
          explanation: prose.join("\n"),
          diff: diffOf(changes),
          api: changedApi(changed, functions, runtime.language.prompts),
        },
        runtime.language,
      );
      modelView = [...(await validateClaimTests(runtime, reply.claims, SCRATCH)), ...calls];
    } catch (err) {
      notes.push(
        `The model's claims were not usable, so the offline checks ran instead: ${(err as Error).message}`,
      );
    }
  }
  // Offline, a sentence that gives a concrete example (`f(x)` returns `y`) is checked by running that example.
  if (!modelView) {
    const modules = moduleNames(
      changes.filter((c) => c.after !== null && !runtime.files.isTestFile(c.path)).map((c) => c.path),
    );
    modelView = sentences.map((text, i) => {
      const check = exampleCheck(text);
      const parsed: ModelClaim = { text, kind: "other" };
      return check
        ? {
            ...parsed,
            kind: "behaviour",
            testPath: `${SCRATCH}/test_example_${i + 1}.py`,
            test: exampleTest(check, modules),
          }
        : parsed;
    });
  }
  const extraTests = Object.fromEntries(
    (modelView ?? []).flatMap((c) => (c.testPath && c.test ? [[c.testPath, c.test]] : [])),
  );
  const full = await runDifferential(sandbox, runtime, changes, { ...input.options, extraTests });
  const evidence: DifferentialReport = {
    ...full,
    tests: full.tests.filter((t) => !t.id.startsWith(`${SCRATCH}/`)),
  };
  const testIds = evidence.tests.map((t) => t.id);

  const offline = (text: string, kind?: ModelClaim["kind"]): Claim => {
    const parsed = parseClaim(text, testIds, evidence.changedFunctions);
    return judgeClaim(kind && kind !== "other" ? { ...parsed, kind } : parsed, evidence);
  };
  const claims = modelView
    .map((c) => {
      if (c.testPath) return judgeByTest({ ...c, testPath: c.testPath }, full);
      const judged = offline(c.text, c.kind);
      return c.rejected ? { ...judged, evidence: `${judged.evidence} (${c.rejected})` } : judged;
    })
    .map(revise);
  if (claims.length === 0)
    notes.push("The explanation makes no claim; only the behaviour changes are reported.");

  const audit: Audit = {
    claims,
    behaviourChanges: behaviourChanges(evidence),
    unverified: unverifiedFunctions(evidence),
    notes: [...notes, ...full.notes],
    recordedCalls: evidence.calls.length,
  };
  return { audit, verdict: auditVerdict(audit), markdown: renderAudit(audit), evidence };
}

/**
 * The pipeline's audit hook (`FixOptions.audit`): audits a validated patch
 * against the supported hypothesis and the tests it fixes.
 */
export function pipelineAudit(options: Pick<AuditPatchInput, "engine" | "model" | "options">) {
  return async (input: {
    sandbox: Sandbox;
    runtime: AuditPatchInput["runtime"];
    diff: string;
    explanation: string;
    /** The job's limits scaled from its baseline; the audit's own options win. */
    limits?: { testTimeoutMs: number; suiteTimeoutMs: number };
    /** The tests that reach the changed code (the job's coverage); absent: the whole suite. */
    tests?: string[];
    /** The tests the patch fixes: their calls are recorded past the per-function cap. */
    failingTests?: string[];
  }): Promise<Audit> => {
    const outcome = await auditPatch({
      ...options,
      options: {
        ...input.limits,
        ...(input.tests ? { tests: input.tests } : {}),
        ...(input.failingTests ? { priorityTests: input.failingTests } : {}),
        ...options.options,
      },
      sandbox: input.sandbox,
      runtime: input.runtime,
      patch: input.diff,
      claims: input.explanation,
    });
    return outcome.audit;
  };
}
