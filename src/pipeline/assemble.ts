import type { Candidate, StepRecord, Validation } from "../debug/types.js";
import type { OrderDependence } from "./order.js";
import type { Flakiness } from "./reproduce.js";
import { renderFirstScreen, renderReport, type ReportMeta } from "../report/render.js";
import { auditVerdict, hasPatch, resultSchema, type Audit, type Patch, type Result } from "../result.js";

export const EMPTY_AUDIT: Audit = { claims: [], behaviourChanges: [], unverified: [], notes: [] };

/** What a run learned so far; every phase adds to it, and the report is assembled from it. */
export interface RunState {
  /** Where the tests ran, what was asked for, and why they differ. */
  sandbox?: Result["sandbox"];
  failingTests: string[];
  /** The reproduced failure's signature (pipeline/signature.ts). */
  failureSignature?: string;
  localization?: Result["localization"];
  /** Set when a localizer with several runs ranked the functions. */
  localizationRuns?: { agreement: number; total: number };
  /** Why the localizer (AutoFL) contributed nothing, when it was asked to rank. */
  localizerUnavailable?: string;
  /** Tests that failed in the baseline but are not failures to fix. */
  flaky?: Flakiness[];
  /** Failing tests reproduced after the tests they need before them. */
  orderDependent?: OrderDependence[];
  steps: StepRecord[];
  patches: { candidate: Candidate; validation: Validation }[];
  chosen?: { candidate: Candidate; validation: Validation };
  reproduction: { failedRuns: number; totalRuns: number };
  reproduced?: boolean;
  done?: boolean;
  experiments?: number;
  suiteBefore?: { passed: number; failed: number };
  suiteAfter?: { passed: number; failed: number };
  audit?: Audit;
  /** The chosen patch's signals. */
  signals?: Result["signals"];
  /** Set when the chosen patch fixes some of the failing tests, not all (status `partial`). */
  partialFix?: { fixes: string[]; stillFailing: string[] };
  environment?: Result["environment"];
}

export interface AssembleContext {
  /** The maintainer's `/fix <text>`, recorded with whether the engine could use it. */
  constraint?: string;
  engine: Result["engine"];
  usage: Result["usage"];
  maxSteps: number;
  headSha?: string;
  ci?: ReportMeta["ci"];
  timings: Record<string, number>;
  startedAt: number;
}

export interface FixOutcome {
  result: Result;
  report: string;
  /** The validated patch (status `fixed`, or `partial`: never proposed as a fix), or "" when there is none. */
  patch: string;
  /** The report's first screen (title, summary, cause, flags): a review's body. */
  firstScreen?: string;
}

/** The result.json and the report (the PR body) of a run that ended with `status`. */
export function assemble(
  state: RunState,
  status: Result["status"],
  reason: string,
  context: AssembleContext,
): FixOutcome {
  const audit = state.audit ?? {
    ...EMPTY_AUDIT,
    notes: hasPatch(status) ? [] : ["no validated patch to audit"],
  };
  const { timings } = context;
  timings.total = Date.now() - context.startedAt;
  const at = state.chosen?.candidate.at;
  const result = resultSchema.parse({
    status,
    reason,
    failingTests: state.failingTests,
    ...(state.failureSignature ? { failureSignature: state.failureSignature } : {}),
    localization: state.localization ?? [],
    steps: state.steps.map(
      ({ hypothesis, prediction, experiment, observation, conclusion, done, role, decisive }) => ({
        hypothesis,
        prediction,
        experiment,
        observation,
        conclusion,
        done,
        ...(role ? { role } : {}),
        ...(decisive ? { decisive } : {}),
      }),
    ),
    patches: orderedPatches(state),
    confidence: {
      // The patch's own hypothesis must have concluded, not any step of the run.
      done: state.chosen ? patchConcluded(state) : (state.done ?? false),
      reproduced: state.reproduced ?? false,
      // Every test of the suite, not only the targeted ones: failures from before the patch count.
      suitePasses:
        status === "fixed" && state.chosen !== undefined && state.chosen.validation.testsFailed === 0,
      localizationAgreement: agreement(state),
      audit: hasPatch(status) ? auditVerdict(audit) : "not-run",
    },
    audit,
    ...(state.signals && hasPatch(status) ? { signals: state.signals } : {}),
    timings,
    usage: context.usage,
    engine: context.engine,
    ...(status === "partial" && state.partialFix ? { partialFix: state.partialFix } : {}),
    ...(state.environment ? { environment: state.environment } : {}),
    ...(state.flaky && state.flaky.length > 0 ? { flaky: state.flaky } : {}),
    ...(state.orderDependent
      ? { orderDependent: state.orderDependent.map(({ test, precededBy }) => ({ test, precededBy })) }
      : {}),
    ...(state.sandbox ? { sandbox: state.sandbox } : {}),
    ...(context.constraint
      ? { constraint: { text: context.constraint, used: context.engine === "llm" } }
      : {}),
  });
  const otherFailures = state.chosen?.validation.otherFailures ?? [];
  const meta: ReportMeta = {
    ...(context.headSha ? { headSha: context.headSha } : {}),
    ...(context.ci ? { ci: context.ci } : {}),
    reproduction: state.reproduction,
    ...(state.suiteBefore ? { suiteBefore: state.suiteBefore } : {}),
    ...(state.suiteAfter ? { suiteAfter: state.suiteAfter } : {}),
    ...(otherFailures.length > 0 ? { otherFailures } : {}),
    ...(state.localizerUnavailable !== undefined ? { localizerUnavailable: state.localizerUnavailable } : {}),
    maxSteps: context.maxSteps,
    experiments: state.experiments ?? 0,
    durationMs: timings.total,
    ...(at ? { fixedAt: at } : {}),
    ...(state.localizationRuns
      ? {
          localizationRuns: {
            agreeing: Math.round(state.localizationRuns.agreement * state.localizationRuns.total),
            total: state.localizationRuns.total,
          },
        }
      : {}),
    notes: state.steps.map((s) => s.note),
  };
  const report = renderReport(result, meta);
  const patch = hasPatch(status) ? (result.patches[0]?.diff ?? "") : "";
  return { result, report, patch, firstScreen: renderFirstScreen(result, meta) };
}

/** Every candidate as result.json lists it; the proposed patch goes first so consumers find it at patches[0]. */
function orderedPatches(state: RunState): Patch[] {
  const patches: Patch[] = state.patches.map(({ candidate, validation }) => ({
    diff: validation.diff,
    plausible: validation.plausible,
    testsRun: validation.testsRun,
    testsFailed: validation.testsFailed,
    brokenTests: validation.brokenTests,
    ...(candidate.fromStep !== undefined ? { fromStep: candidate.fromStep } : {}),
    ...(validation.rejectedBecause ? { rejectedBecause: validation.rejectedBecause } : {}),
  }));
  const chosenIndex = state.chosen ? state.patches.indexOf(state.chosen) : -1;
  if (chosenIndex > 0) patches.unshift(...patches.splice(chosenIndex, 1));
  return patches;
}

/** AutoFL's run agreement (first answers), or whether SBFL's top function is where the fix went (0 without a fix). */
function agreement(state: RunState): number {
  if (state.localizationRuns) return state.localizationRuns.agreement;
  const top = state.localization?.[0];
  const at = state.chosen?.candidate.at;
  if (!top || !at) return 0;
  return top.file === at.file && (at.function === undefined || top.function === at.function) ? 1 : 0;
}

/** Whether the step whose edit is the chosen patch reached `<DONE>`. */
function patchConcluded(state: RunState): boolean {
  const from = state.chosen?.candidate.fromStep;
  return from !== undefined && (state.steps[from]?.done ?? false);
}
