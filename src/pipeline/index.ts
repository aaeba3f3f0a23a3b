import path from "node:path";
import type { Config } from "../config.js";
import { Budget, experimentTimeoutMs } from "../debug/budget.js";
import type { PathRules } from "../debug/guards.js";
import type { BugContext, Candidate, DebugEngine, EngineRun, FileEdit, Validation } from "../debug/types.js";
import type { Language, Runtime } from "../lang/types.js";
import type { Logger } from "../log.js";
import { assemble, EMPTY_AUDIT, type FixOutcome, type RunState } from "./assemble.js";
import { environmentPhase } from "./environment.js";
import { patchExplanation } from "./explanation.js";
import { coverageReaches, localizePhase, type Localized, type Localizer } from "./localize.js";
import { allDefaults, withRunDefaults, type RunDefaults } from "./job-runtime.js";
import { limitDefaults } from "./limits.js";
import { precedingDefaults } from "./order.js";
import { testsToRun } from "./reach.js";
import { reproducePhase, type Reproduced } from "./reproduce.js";
import { overturned, revalidatePhase } from "./revalidate.js";
import { chooseCandidate, measurer, signalsOf } from "./signals.js";
import { suiteSelection } from "./suite.js";
import { foldEquivalent } from "./patch-size.js";
import { makeValidator } from "./validate.js";
import type { ReportMeta } from "../report/render.js";
import type { RepoConfig } from "../repo-config.js";
import type { Audit, Result } from "../result.js";
import { createSandbox, type SandboxBackend } from "../sandbox/index.js";
import type { Sandbox, SandboxOptions } from "../sandbox/types.js";
import { failureSignature } from "./signature.js";

export type { FixOutcome } from "./assemble.js";
export type { LocalizerInput, LocalizerOutput } from "./localize.js";

export type Phase =
  | "environment"
  | "sandbox"
  | "reproduce"
  | "localize"
  | "debug"
  | "validate"
  | "revalidate"
  | "audit"
  | "signals"
  | "report";

export interface AuditInput {
  sandbox: Sandbox;
  runtime: Runtime;
  edits: Candidate["edits"];
  diff: string;
  failingTests: string[];
  /** The supported hypothesis, as the claim the patch makes. */
  explanation: string;
  /** The job's limits (scaled from the baseline) for the audit's runs of the suite on each side. */
  limits: { testTimeoutMs: number; suiteTimeoutMs: number };
  /** The tests that reach the changed code (and the failing ones): the audit runs only these. Absent: the suite. */
  tests?: string[];
}

/** The language's instruments over a sandbox; tests run from `workingDirectory` (relative to the root). */
export type RuntimeFactory = (sandbox: Sandbox, where: { workingDirectory?: string }) => Runtime;

/**
 * What a run is made of, decided once by composition (compose.ts, `createRunContext`) and
 * handed down: the configuration, the repository's language, the engine and the parts that
 * depend on it.
 */
export interface RunContext {
  config: Config;
  /** Read once for the job (the default branch's, for the App). */
  repoConfig: RepoConfig;
  /** The repository's language: its environment, file rules and runtime. */
  language: Language;
  engine: DebugEngine;
  makeRuntime: RuntimeFactory;
  /** The audit of a validated patch; absent: the report says the audit did not run. */
  audit?: (input: AuditInput) => Promise<Audit>;
  /** A localizer beside SBFL (AutoFL for the llm engine); absent: SBFL's ranking stands. */
  localizer?: Localizer;
  /** Token use reported by the engine's model, read at the end. */
  usage?: () => Result["usage"];
  log?: Logger;
}

/** One run: which checkout, which tests, where, and who hears about its progress. */
export interface FixInput {
  repoDir: string;
  /** The language's test ids; empty: run the suite and take every failing test. */
  tests: string[];
  backend: SandboxBackend | "auto";
  /** The repository's identity (owner/name) for the environment cache; default: the checkout's path. */
  repository?: string;
  /** The failed CI job's log excerpt: the engine's bug report, and the toolchain version it ran. */
  ciLog?: string;
  /** The maintainer's constraint on the fix (`/fix <text>`): the llm engine's prompt carries it; the report records it. */
  constraint?: string;
  /** False for a fork's head: the setup never runs with network (a cached environment is still used). */
  allowSetupNetwork?: boolean;
  headSha?: string;
  ci?: ReportMeta["ci"];
  /** One line per phase, for humans (stderr in the CLI). */
  progress?: (line: string) => void;
  /** Each finished phase with its line, for machines (the App's check run). */
  onPhase?: (phase: Phase, line: string) => void;
  /** Aborted when the job should stop; checked after each phase (the abort reason is thrown). */
  signal?: AbortSignal;
  /** Overrides for the job budget (wall clock defaults to 10 minutes). */
  wallClockMs?: number;
  /** Epoch ms: the job's deadline; no sandbox command runs past it. */
  deadline?: number;
}

/** One run's shared state: the options, its sandbox and runtime, timings and what it learned. */
interface Run {
  context: RunContext;
  request: FixInput;
  sandbox: Sandbox;
  /** How the sandbox was made, so the chosen patch can be re-validated in a fresh one like it. */
  sandboxOptions: SandboxOptions;
  /** Where tests run inside the repository (working_directory). */
  where: { workingDirectory?: string };
  runtime: Runtime;
  /** What every run of tests gets once reproduction has measured the suite (the job's runtime applies it). */
  defaults?: RunDefaults;
  rules: PathRules;
  suiteIds: string[] | undefined;
  state: RunState;
  phase(name: Phase, line: string): void;
  finish(status: Result["status"], reason: string): FixOutcome;
}

/** Candidates re-validated in a fresh sandbox, at most, before the job says none held. */
const MAX_FRESH = 3;

/** Time kept after the engine beyond the runs it is measured by (snapshots, reports). */
const AFTER_ENGINE_MARGIN_MS = 10_000;

/** The one function that runs a job end to end: environment, sandbox, reproduce, localize, debug, validate, audit, report. */
export async function runFix(context: RunContext, request: FixInput): Promise<FixOutcome> {
  const { config, repoConfig, language, log } = context;
  const startedAt = Date.now();
  const timings: Record<string, number> = {};
  const progress = request.progress ?? (() => {});
  let phaseStart = Date.now();
  const state: RunState = {
    failingTests: [],
    steps: [],
    patches: [],
    reproduction: { failedRuns: 0, totalRuns: 0 },
  };
  const phase = (name: Phase, line: string) => {
    timings[name] = (timings[name] ?? 0) + Date.now() - phaseStart;
    phaseStart = Date.now();
    progress(`${name}: ${line}`);
    request.onPhase?.(name, line);
    request.signal?.throwIfAborted();
  };
  const finish = (status: Result["status"], reason: string) =>
    assemble(state, status, reason, {
      engine: context.engine.name,
      usage: context.usage?.() ?? { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
      maxSteps: repoConfig.max_iterations,
      timings,
      startedAt,
      ...(request.headSha ? { headSha: request.headSha } : {}),
      ...(request.ci ? { ci: request.ci } : {}),
      ...(request.constraint ? { constraint: request.constraint } : {}),
    });

  let fallback: string | undefined;
  const environment = await environmentPhase({
    repoDir: request.repoDir,
    backend: request.backend,
    onFallback: (why) => (fallback = why),
    config,
    repoConfig,
    language,
    scope: request.repository ?? path.resolve(request.repoDir),
    allowSetupNetwork: request.allowSetupNetwork ?? true,
    ...(request.ciLog ? { ciLog: request.ciLog } : {}),
    ...(log ? { log } : {}),
  });
  if (environment.record) state.environment = environment.record;
  phase("environment", environment.progress);
  if ("error" in environment) return finish("error", environment.error);
  const sandboxOptions: SandboxOptions = {
    repoDir: request.repoDir,
    image: environment.image,
    limits: config.sandbox.limits,
    support: language.sandbox,
    ...(environment.setupCommand ? { setupCommand: environment.setupCommand } : {}),
    ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
  };
  const sandbox = await createSandbox(environment.backend, sandboxOptions, log);
  state.sandbox = {
    backend: sandbox.kind,
    asked: request.backend,
    ...(fallback ? { fallback: `${fallback}; ran in the local sandbox, without isolation` } : {}),
  };
  const workingDirectory = repoConfig.working_directory;
  const run: Run = {
    context,
    request,
    sandbox,
    sandboxOptions,
    where: workingDirectory ? { workingDirectory } : {},
    runtime: context.makeRuntime(sandbox, workingDirectory ? { workingDirectory } : {}),
    rules: pathRules(repoConfig, language),
    suiteIds: suiteSelection(repoConfig, language),
    state,
    phase,
    finish: (status, reason) => {
      if (state.environment) {
        const setAside = run.runtime.optionsSetAside();
        state.environment.optionsSetAside = setAside;
        state.environment.pytestSetAside = setAside;
      }
      return finish(status, reason);
    },
  };
  try {
    run.phase("sandbox", `${sandbox.kind} sandbox ready`);
    return await repair(run);
  } finally {
    await sandbox.dispose();
  }
}

async function repair(run: Run): Promise<FixOutcome> {
  const { state } = run;
  const reproduction = await reproducePhase(run.runtime, {
    tests: run.request.tests,
    suiteIds: run.suiteIds,
    reruns: run.context.repoConfig.reruns,
    maxMs: run.context.config.sandbox.limits.timeoutMs,
  });
  if (reproduction.end) {
    const { partial, end } = reproduction;
    if (partial.failingTests) state.failingTests = partial.failingTests;
    if (partial.suiteBefore) state.suiteBefore = partial.suiteBefore;
    if (partial.reruns)
      state.reproduction = { failedRuns: partial.reruns.failedRuns, totalRuns: partial.reruns.totalRuns };
    if (partial.flaky) state.flaky = partial.flaky;
    run.phase("reproduce", end.progress);
    return run.finish(end.status, end.reason);
  }
  const reproduced = reproduction.reproduced;
  // A file the suite collects tests from is test code whatever its name: never a suspect, never patched.
  if (reproduced.baseline.testFiles) run.rules = { ...run.rules, testFiles: reproduced.baseline.testFiles };
  const { reruns } = reproduced;
  state.suiteBefore = reproduced.suiteBefore;
  state.reproduction = { failedRuns: reruns.failedRuns, totalRuns: reruns.totalRuns };
  state.reproduced = true;
  state.failingTests = reproduced.failingTests;
  state.failureSignature = failureSignature(
    reproduced.baseline.tests.filter((t) => reproduced.failingTests.includes(t.id)),
  );
  if (reproduced.orderDependent.length > 0) state.orderDependent = reproduced.orderDependent;
  jobRuntime(run, reproduced);
  run.phase(
    "reproduce",
    `${reruns.reproduced.length} failing test(s) reproduced ${reruns.totalRuns}/${reruns.totalRuns} times`,
  );

  const localizeStarted = Date.now();
  const localized = await localizePhase(run.sandbox, run.runtime, {
    suiteIds: run.suiteIds,
    failingTests: reproduced.failingTests,
    failures: reproduced.baseline.tests.filter((t) => reproduced.failingTests.includes(t.id)),
    rules: run.rules,
    ...(run.context.localizer ? { localizer: run.context.localizer } : {}),
  });
  state.localization = localized.localization;
  if (localized.localizationRuns) state.localizationRuns = localized.localizationRuns;
  if (localized.localizerUnavailable) state.localizerUnavailable = localized.localizerUnavailable;
  if (localized.nothing !== undefined) {
    run.phase("localize", "no suspicious line in the source paths");
    return run.finish("no-fix", `no line a patch may change is suspicious: ${localized.nothing}`);
  }
  const top = localized.suspicious[0]!;
  run.phase("localize", `top suspect ${top.file}:${top.line}${top.function ? ` (${top.function})` : ""}`);

  // After the engine, the chosen patch's coverage run (as long as localization's) and its
  // validation again in a fresh sandbox (a suite run, and the sandbox's setup) must still fit
  // before the job's deadline: the engine stops that much earlier.
  const afterEngineMs =
    Date.now() - localizeStarted + 2 * reproduced.baseline.durationMs + AFTER_ENGINE_MARGIN_MS;
  const debugged = await debugPhase(run, reproduced, localized, afterEngineMs);
  if ("error" in debugged) return run.finish("error", debugged.error);
  return validateAndAudit(run, reproduced, debugged, localized);
}

/**
 * From here on every run of tests keeps what reproduction measured and found: limits scaled from
 * the baseline, and an order-dependent failing test run after the tests it needs before it.
 */
function jobRuntime(run: Run, reproduced: Reproduced): void {
  const durations = new Map(reproduced.baseline.tests.map((t) => [t.id, t.durationMs]));
  run.defaults = allDefaults(
    limitDefaults(reproduced.limits),
    precedingDefaults(reproduced.orderDependent, (t) => durations.get(t) ?? 0),
  );
  run.runtime = withRunDefaults(run.runtime, run.defaults);
}

/** What a candidate is validated against, in the warm sandbox and again in a fresh one. */
function validationOf(run: Run, reproduced: Reproduced, failing = reproduced.failingTests) {
  return {
    baseline: reproduced.baseline,
    failing,
    suiteIds: run.suiteIds,
    rules: run.rules,
    passedAlone: reproduced.orderDependent.map((o) => o.test).filter((t) => failing.includes(t)),
    // A patch that makes the suite hang is refused at a few times the suite's own time.
    timeoutMs: reproduced.limits.suiteMs,
  };
}

/**
 * The tests a run with these edits must cover (the rest keep their baseline outcome and
 * coverage): inside debugging and for the signals, so a candidate costs the tests it can affect,
 * not the suite. The fresh revalidation still runs the whole suite.
 */
function scopeOf(reproduced: Reproduced, localized: Localized, failing = reproduced.failingTests) {
  const order = reproduced.baseline.tests.map((t) => t.id);
  return (edits: FileEdit[]) =>
    testsToRun({
      coverage: localized.coverage,
      edits,
      failing,
      orderDependent: reproduced.orderDependent,
      order,
    });
}

/** The engine's loop, validating each candidate as it is found. */
async function debugPhase(
  run: Run,
  reproduced: Reproduced,
  localized: Localized,
  afterEngineMs: number,
): Promise<{ engineRun: EngineRun; budget: Budget } | { error: string }> {
  const { context, request, state, sandbox } = run;
  const primary = reproduced.failingTests[0]!;
  const primaryRun = reproduced.baseline.tests.find((t) => t.id === primary);
  const sources = new Map<string, string>();
  const bug: BugContext = {
    failingTests: reproduced.failingTests,
    primaryTest: primary,
    ...(primaryRun?.failure ? { failure: primaryRun.failure } : {}),
    suspicious: localized.suspicious,
    ...(localized.localizationRuns ? { ranked: localized.localization } : {}),
    functions: localized.coverage.functions,
    reaches: coverageReaches(localized.coverage),
    experimentTimeoutMs: experimentTimeoutMs(reproduced.baseline),
    readSource: async (file) => {
      if (!sources.has(file)) sources.set(file, await sandbox.readFile(file));
      return sources.get(file)!;
    },
    ...(request.ciLog ? { bugReport: request.ciLog } : {}),
    ...(request.constraint ? { constraint: request.constraint } : {}),
    async withEdits(edits, work) {
      const snapshot = await sandbox.snapshot();
      try {
        for (const e of edits) await sandbox.writeFile(e.file, e.after);
        return await work();
      } finally {
        await sandbox.restore(snapshot);
      }
    },
  };
  const budget = new Budget({
    maxExperiments: context.repoConfig.max_experiments,
    maxTokens: context.config.llm.tokenBudget,
    wallClockMs: Math.max(
      0,
      Math.min(
        request.wallClockMs ?? 10 * 60_000,
        request.deadline !== undefined ? request.deadline - Date.now() - afterEngineMs : Infinity,
      ),
    ),
  });
  const validate = makeValidator({
    sandbox,
    runtime: run.runtime,
    ...validationOf(run, reproduced),
    scope: scopeOf(reproduced, localized),
  });
  let engineRun: EngineRun;
  try {
    engineRun = await context.engine.run(bug, run.runtime, budget, validate);
  } catch (err) {
    state.experiments = budget.experiments;
    run.phase("debug", "the engine failed");
    return {
      error: `the ${context.engine.name} engine failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  state.experiments = budget.experiments;
  state.steps = engineRun.steps;
  state.done = engineRun.done;
  run.phase(
    "debug",
    `${engineRun.steps.length} steps, ${budget.experiments} experiments, ${engineRun.done ? "DONE" : `stopped (${engineRun.stop})`}`,
  );
  return { engineRun, budget };
}

/** Picks the first plausible candidate, re-validates it in a fresh sandbox, and audits it. */
async function validateAndAudit(
  run: Run,
  reproduced: Reproduced,
  { engineRun, budget }: { engineRun: EngineRun; budget: Budget },
  localized: Localized,
): Promise<FixOutcome> {
  const { state, context } = run;
  state.patches = engineRun.candidates;
  let targets = reproduced.failingTests;
  const measuring = {
    sandbox: run.sandbox,
    runtime: run.runtime,
    suiteIds: run.suiteIds,
    timeoutMs: validationOf(run, reproduced).timeoutMs,
    before: localized.coverage,
    scope: scopeOf(reproduced, localized),
    failingTests: targets,
    experimentTimeoutMs: experimentTimeoutMs(reproduced.baseline),
  };
  const measure = measurer(measuring);
  // Among validated candidates, one that trips a signal never beats one that does not; then
  // the one a reviewer reads fastest. Candidates equal on the suite are ordered smallest first,
  // but all stay in: a smaller one may be the workaround that trips a signal.
  const ranked = await chooseCandidate(
    measuring,
    measure,
    foldEquivalent(
      engineRun.candidates.filter((c) => c.validation.plausible),
      state.localization?.[0],
    ).flatMap((group) => [group.chosen, ...group.variants]),
  );
  let chosen = ranked.chosen;
  let order = ranked.order;
  // A partial fix goes through the same fresh-sandbox validation, only against the tests it fixes.
  let partial = false;
  if (!chosen && run.request.tests.length === 0) {
    // Nobody named the tests, so every failing one was taken, unrelated breakage included. A
    // patch that fixes some of them and breaks nothing fixes those; the fresh sandbox decides.
    chosen = engineRun.candidates.find((c) => fixesSome(c.validation, targets));
    order = chosen ? [chosen] : [];
    if (chosen) {
      const left = chosen.validation.stillFailing;
      targets = targets.filter((t) => !left.includes(t));
      partial = true;
    }
  }
  run.phase(
    "validate",
    chosen
      ? `patch validated: ${chosen.validation.testsRun} tests${chosen.validation.scoped ? " reaching the change" : ""}, 0 broken${
          partial ? `; it fixes ${targets.length} of the ${reproduced.failingTests.length} failing tests` : ""
        }`
      : `${engineRun.candidates.length} candidate(s), none validated`,
  );
  if (!chosen) {
    const reason =
      engineRun.stop === "budget"
        ? `no validated patch before the budget ran out (${budget.exhausted() ?? "budget"})`
        : engineRun.candidates.length > 0
          ? `${engineRun.candidates.length} candidate(s) passed the failing test but broke others or were refused`
          : "no hypothesis led to an edit that makes the failing test pass";
    return run.finish("no-fix", reason);
  }
  // The whole suite, in a fresh sandbox. Debugging ran only the tests reaching each change, so a
  // test the coverage missed may break here: the next candidate in rank order gets its turn.
  let fresh: Validation | undefined;
  let refused: Validation | undefined;
  for (const next of order.slice(0, MAX_FRESH)) {
    chosen = next;
    const verdict = await revalidatePhase({
      freshSandbox: () => createSandbox(run.sandbox.kind, run.sandboxOptions, context.log),
      makeRuntime: (sandbox) => {
        const runtime = context.makeRuntime(sandbox, run.where);
        return run.defaults ? withRunDefaults(runtime, run.defaults) : runtime;
      },
      candidate: next.candidate,
      ...validationOf(run, reproduced, targets),
    });
    if (verdict.plausible) {
      fresh = verdict;
      break;
    }
    refused = verdict;
    next.validation = overturned(next.validation, verdict);
    run.phase("revalidate", `the patch did not hold in a fresh sandbox: ${verdict.rejectedBecause}`);
  }
  if (!fresh) {
    return run.finish(
      "no-fix",
      `the validated patch did not hold when re-run in a fresh sandbox: ${refused?.rejectedBecause ?? "a different verdict"}`,
    );
  }
  run.phase("revalidate", `the patch holds in a fresh sandbox: ${fresh.testsRun} tests, 0 broken`);
  if (partial) {
    // What the patch fixes and what it leaves failing; it is reported, never proposed as a fix.
    state.partialFix = {
      fixes: targets,
      stillFailing: reproduced.failingTests.filter((t) => !targets.includes(t)),
    };
  }
  // The whole suite's verdict is the one reported.
  chosen.validation = fresh;
  state.chosen = chosen;
  state.suiteAfter = {
    passed: chosen.validation.testsRun - chosen.validation.testsFailed,
    failed: chosen.validation.testsFailed,
  };
  if (!context.audit) {
    state.audit = { ...EMPTY_AUDIT, notes: ["no audit is wired into this run"] };
  } else {
    const supported =
      chosen.candidate.fromStep !== undefined ? engineRun.steps[chosen.candidate.fromStep] : undefined;
    try {
      state.audit = await context.audit({
        sandbox: run.sandbox,
        runtime: run.runtime,
        edits: chosen.candidate.edits,
        diff: chosen.validation.diff,
        failingTests: targets,
        explanation: await patchExplanation({
          sandbox: run.sandbox,
          runtime: run.runtime,
          candidate: chosen.candidate,
          step: supported,
          test: targets[0],
          functions: localized.coverage.functions,
          timeoutMs: reproduced.limits.testMs,
        }),
        limits: { testTimeoutMs: reproduced.limits.testMs, suiteTimeoutMs: reproduced.limits.suiteMs },
        ...auditTests(reproduced, localized, chosen.candidate, state.failingTests),
      });
    } catch (err) {
      state.audit = {
        ...EMPTY_AUDIT,
        notes: [`the audit failed: ${err instanceof Error ? err.message : String(err)}`],
      };
    }
    run.phase("audit", `${state.audit.claims.length} claims checked`);
  }
  state.signals = signalsOf({
    candidate: chosen.candidate,
    failingTests: targets,
    before: localized.coverage,
    measured: ranked.measured.get(chosen) ?? (await measure(chosen.candidate)),
    ...(context.audit ? { audit: state.audit } : {}),
  });
  run.phase(
    "signals",
    `${state.signals.filter((s) => s.tripped).length} of ${state.signals.length} signals tripped`,
  );
  // Tests broken before the job and not its target still fail: the suite is not green, only no worse.
  const stillBroken = chosen.validation.otherFailures?.length ?? 0;
  if (state.partialFix) return run.finish("partial", partialReason(state.partialFix));
  return run.finish(
    "fixed",
    `a patch passes ${state.failingTests.join(", ")} and ${
      stillBroken > 0
        ? `breaks no test that passed before (${stillBroken} other test(s) failed before it and still fail)`
        : "keeps the whole suite green"
    }`,
  );
}

/** Status `partial`'s reason: what the patch fixes, and what still fails. */
function partialReason({ fixes, stillFailing }: { fixes: string[]; stillFailing: string[] }): string {
  const total = fixes.length + stillFailing.length;
  return `a patch fixes ${fixes.length} of ${total} failing tests (${fixes.join(", ")}) and breaks no test that passed before; ${stillFailing.join(", ")} still fail${stillFailing.length === 1 ? "s" : ""}`;
}

/** The audit's tests: those a run with the patch must cover (the fresh revalidation ran the whole suite once). None: the whole suite. */
function auditTests(
  reproduced: Reproduced,
  localized: Localized,
  candidate: Candidate,
  failing: string[],
): { tests?: string[] } {
  const tests = scopeOf(reproduced, localized, failing)(candidate.edits);
  return tests ? { tests } : {};
}

/** A patch that makes some of the failing tests pass, not all, and breaks no test that passed. */
function fixesSome(validation: Validation, failing: string[]): boolean {
  return (
    validation.testsRun > 0 &&
    validation.brokenTests.length === 0 &&
    validation.stillFailing.length > 0 &&
    validation.stillFailing.length < failing.length
  );
}

/** Where a patch may go: the configured paths, under the language's file rules. */
export function pathRules(repoConfig: RepoConfig, language: Language): PathRules {
  return {
    files: language.files,
    sourcePaths: repoConfig.source_paths,
    ignorePaths: repoConfig.ignore_paths,
  };
}
