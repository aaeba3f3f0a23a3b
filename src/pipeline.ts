import { createTwoFilesPatch } from "diff";
import { auditVerdict } from "./audit/index.js";
import type { Config } from "./config.js";
import { UserError } from "./errors.js";
import type { PythonRuntime } from "./lang/python/runtime.js";
import type { CoverageReport, TestResult, TestRun } from "./lang/python/types.js";
import type { Logger } from "./log.js";
import { sbfl } from "./localize/sbfl.js";
import { createSandbox } from "./sandbox/index.js";
import type { Sandbox } from "./sandbox/types.js";
import { Budget } from "./debug/budget.js";
import { forbiddenPath, reproduce, type PathRules } from "./debug/guards.js";
import type { BugContext, Candidate, DebugEngine, EngineRun, StepRecord, Validation } from "./debug/types.js";
import { renderReport, type ReportMeta } from "./report/render.js";
import { commandArgv, type RepoConfig } from "./repo-config.js";
import { resultSchema, type Audit, type Patch, type Result } from "./result.js";

export type Phase = "sandbox" | "reproduce" | "localize" | "debug" | "validate" | "audit" | "report";

export interface AuditInput {
  sandbox: Sandbox;
  runtime: PythonRuntime;
  edits: Candidate["edits"];
  diff: string;
  failingTests: string[];
  /** The supported hypothesis, as the claim the patch makes. */
  explanation: string;
}

export interface LocalizerInput {
  sandbox: Sandbox;
  runtime: PythonRuntime;
  coverage: CoverageReport;
  failingTests: string[];
  failures: TestResult[];
}

export interface LocalizerOutput {
  entries: Result["localization"];
  /** Share of the runs that named the top function (AutoFL's confidence), and how many ran. */
  agreement: number;
  runs: number;
}

export interface FixOptions {
  repoDir: string;
  /** pytest node ids; empty: run the suite and take every failing test. */
  tests: string[];
  engine: DebugEngine;
  backend: "docker" | "local" | "auto";
  config: Config;
  repoConfig: RepoConfig;
  makeRuntime: (sandbox: Sandbox) => PythonRuntime;
  /** The audit of a validated patch; absent: the report says the audit did not run. */
  audit?: (input: AuditInput) => Promise<Audit>;
  /** A localizer beside SBFL (AutoFL for the llm engine); absent: SBFL's ranking stands. */
  localizer?: (input: LocalizerInput) => Promise<LocalizerOutput>;
  /** One line per phase, for humans (stderr in the CLI). */
  progress?: (line: string) => void;
  log?: Logger;
  /** Token use reported by the engine's model, read at the end. */
  usage?: () => Result["usage"];
  headSha?: string;
  ci?: ReportMeta["ci"];
  bugReport?: string;
  /** Overrides for the job budget (wall clock defaults to 10 minutes). */
  wallClockMs?: number;
}

export interface FixOutcome {
  result: Result;
  report: string;
  /** The proposed patch, or "" when there is none. */
  patch: string;
}

const EMPTY_AUDIT: Audit = { claims: [], behaviourChanges: [], unverified: [], notes: [] };

/** The one function that runs a job end to end: sandbox, reproduce, localize, debug, validate, audit, report. */
export async function runFix(options: FixOptions): Promise<FixOutcome> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const progress = options.progress ?? (() => {});
  let phaseStart = Date.now();
  const phase = (name: Phase, line: string) => {
    timings[name] = (timings[name] ?? 0) + Date.now() - phaseStart;
    phaseStart = Date.now();
    progress(`${name}: ${line}`);
  };
  const state: PartialState = {
    failingTests: [],
    steps: [],
    patches: [],
    reproduction: { failedRuns: 0, totalRuns: 0 },
  };
  const finish = (status: Result["status"], reason: string, extra: Partial<FinishExtra> = {}): FixOutcome =>
    assemble(options, state, status, reason, timings, started, extra);

  const sandbox = await createSandbox(
    options.backend,
    {
      repoDir: options.repoDir,
      image: options.config.sandbox.image,
      limits: options.config.sandbox.limits,
      ...(options.repoConfig.setup_command
        ? { setupCommand: commandArgv(options.repoConfig.setup_command)! }
        : {}),
    },
    options.log,
  );
  state.sandbox = sandbox.kind;
  try {
    phase("sandbox", `${sandbox.kind} sandbox ready`);
    const runtime = options.makeRuntime(sandbox);
    const rules: PathRules = {
      sourcePaths: options.repoConfig.source_paths,
      ignorePaths: options.repoConfig.ignore_paths,
    };
    const suiteIds = suiteSelection(options.repoConfig);

    // Reproduce: the whole suite once (the baseline every patch is compared to), then reruns of the failing tests.
    const baseline = await runtime.runTests(suiteIds);
    if (baseline.tests.length === 0 && baseline.errors.length > 0) {
      phase("reproduce", "the test suite could not run");
      return finish("error", `pytest could not run the suite: ${firstLine(baseline.errors[0]!)}`);
    }
    const failedInBaseline = baseline.tests.filter(isFailure).map((t) => t.id);
    let requested = options.tests;
    if (requested.length > 0) {
      const known = new Set(baseline.tests.map((t) => t.id));
      const extra = requested.filter((t) => !known.has(t));
      if (extra.length > 0) {
        const run = await runtime.runTests(extra);
        if (run.tests.length === 0) {
          throw new UserError(
            `test not found: ${extra.join(", ")}`,
            `pytest says: ${firstLine(run.errors[0] ?? "no such test")}`,
          );
        }
        baseline.tests.push(...run.tests.filter((t) => !known.has(t.id)));
      }
    } else {
      requested = failedInBaseline;
    }
    state.failingTests = requested;
    state.suiteBefore = counts(baseline);
    const failingNow = requested.filter((id) => baseline.tests.find((t) => t.id === id && isFailure(t)));
    if (failingNow.length === 0) {
      phase("reproduce", "no failing test");
      return finish(
        "not-reproduced",
        options.tests.length > 0
          ? `${requested.join(", ")} passed in the sandbox`
          : `the suite has no failing test (${baseline.tests.length} tests ran)`,
      );
    }
    const reruns = await reproduce(runtime, failingNow, options.repoConfig.reruns);
    state.reproduction = { failedRuns: reruns.failedRuns, totalRuns: reruns.totalRuns };
    if (reruns.flaky.length > 0) {
      phase("reproduce", `flaky: ${reruns.flaky.join(", ")}`);
      return finish("flaky", `${reruns.flaky.join(", ")} passed on some of ${reruns.totalRuns} reruns`);
    }
    if (reruns.reproduced.length === 0) {
      phase("reproduce", "the failure did not reproduce on rerun");
      return finish("not-reproduced", `${failingNow.join(", ")} passed when rerun`);
    }
    state.reproduced = true;
    state.failingTests = reruns.reproduced;
    const primary = reruns.reproduced[0]!;
    const failure = baseline.tests.find((t) => t.id === primary)?.failure;
    phase(
      "reproduce",
      `${reruns.reproduced.length} failing test(s) reproduced ${reruns.totalRuns}/${reruns.totalRuns} times`,
    );

    // Localize: SBFL over per-test coverage; only lines a patch may touch are debugged.
    const coverage = await runtime.coverage(suiteIds);
    const ranking = sbfl({ coverage, failingTests: reruns.reproduced });
    state.localization = ranking.functions
      .filter((f) => forbiddenPath(f.file, rules) === undefined)
      .slice(0, 10);
    let suspicious = ranking.lines.filter((l) => forbiddenPath(l.file, rules) === undefined);
    if (options.localizer) {
      const found = await options.localizer({
        sandbox,
        runtime,
        coverage,
        failingTests: reruns.reproduced,
        failures: baseline.tests.filter((t) => reruns.reproduced.includes(t.id)),
      });
      const allowed = found.entries.filter((f) => forbiddenPath(f.file, rules) === undefined);
      if (allowed.length > 0) {
        state.localization = allowed.slice(0, 10);
        state.localizationRuns = { agreement: found.agreement, total: found.runs };
        // The debugger looks first at the lines of the functions the localizer ranked highest.
        const rank = (l: (typeof suspicious)[number]) => {
          const i = allowed.findIndex((f) => f.file === l.file && f.function === l.function);
          return i < 0 ? allowed.length : i;
        };
        suspicious = suspicious
          .map((l, order) => ({ l, order }))
          .sort((a, b) => rank(a.l) - rank(b.l) || a.order - b.order)
          .map(({ l }) => l);
      }
    }
    state.localization.forEach((f, i) => (f.rank = i + 1));
    const outside = ranking.lines.filter((l) => l.score > 0 && forbiddenPath(l.file, rules) !== undefined);
    if (suspicious.length === 0) {
      phase("localize", "no suspicious line in the source paths");
      const why = outside[0]
        ? forbiddenPath(outside[0].file, rules)!
        : "the failing test runs no source line";
      return finish("no-fix", `no line a patch may change is suspicious: ${why}`);
    }
    const top = suspicious[0]!;
    phase("localize", `top suspect ${top.file}:${top.line}${top.function ? ` (${top.function})` : ""}`);

    // Debug, validating each candidate as it is found.
    const sources = new Map<string, string>();
    const bug: BugContext = {
      failingTests: reruns.reproduced,
      primaryTest: primary,
      ...(failure ? { failure } : {}),
      suspicious,
      functions: coverage.functions,
      experimentTimeoutMs: clamp(
        10 * (baseline.tests.find((t) => t.id === primary)?.durationMs ?? 1000) + 2_000,
        3_000,
        30_000,
      ),
      readSource: async (file) => {
        if (!sources.has(file)) sources.set(file, await sandbox.readFile(file));
        return sources.get(file)!;
      },
      ...(options.bugReport ? { bugReport: options.bugReport } : {}),
    };
    const budget = new Budget({
      maxExperiments: options.repoConfig.max_experiments,
      maxTokens: options.config.llm.tokenBudget,
      wallClockMs: options.wallClockMs ?? 10 * 60_000,
    });
    // A patch that makes the suite hang is refused at a few times the suite's own time.
    const suiteTimeoutMs = clamp(
      5 * baseline.durationMs + 10_000,
      15_000,
      options.config.sandbox.limits.timeoutMs,
    );
    const validate = makeValidator(
      sandbox,
      runtime,
      baseline,
      reruns.reproduced,
      suiteIds,
      rules,
      suiteTimeoutMs,
    );
    let run: EngineRun;
    try {
      run = await options.engine.run(bug, runtime, budget, validate);
    } catch (err) {
      state.experiments = budget.experiments;
      phase("debug", "the engine failed");
      return finish(
        "error",
        `the ${options.engine.name} engine failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    state.experiments = budget.experiments;
    state.steps = run.steps;
    state.done = run.done;
    phase(
      "debug",
      `${run.steps.length} steps, ${budget.experiments} experiments, ${run.done ? "DONE" : `stopped (${run.stop})`}`,
    );

    state.patches = run.candidates;
    const chosen = run.candidates.find((c) => c.validation.plausible);
    phase(
      "validate",
      chosen
        ? `patch validated: ${chosen.validation.testsRun} tests, 0 broken`
        : `${run.candidates.length} candidate(s), none validated`,
    );
    if (!chosen) {
      const reason =
        run.stop === "budget"
          ? `no validated patch before the budget ran out (${budget.exhausted() ?? "budget"})`
          : run.candidates.length > 0
            ? `${run.candidates.length} candidate(s) passed the failing test but broke others or were refused`
            : "no hypothesis led to an edit that makes the failing test pass";
      return finish("no-fix", reason);
    }
    state.chosen = chosen;
    state.suiteAfter = {
      passed: chosen.validation.testsRun - chosen.validation.testsFailed,
      failed: chosen.validation.testsFailed,
    };

    let audit = EMPTY_AUDIT;
    if (options.audit) {
      const supported =
        chosen.candidate.fromStep !== undefined ? run.steps[chosen.candidate.fromStep] : undefined;
      try {
        audit = await options.audit({
          sandbox,
          runtime,
          edits: chosen.candidate.edits,
          diff: chosen.validation.diff,
          failingTests: reruns.reproduced,
          explanation: supported ? (supported.claim ?? supported.hypothesis) : "",
        });
      } catch (err) {
        audit = {
          ...EMPTY_AUDIT,
          notes: [`the audit failed: ${err instanceof Error ? err.message : String(err)}`],
        };
      }
      phase("audit", `${audit.claims.length} claims checked`);
    } else {
      audit = { ...EMPTY_AUDIT, notes: ["no audit is wired into this run"] };
    }
    return finish("fixed", `a patch passes ${reruns.reproduced.join(", ")} and keeps the whole suite green`, {
      audit,
    });
  } finally {
    await sandbox.dispose();
  }
}

interface PartialState {
  sandbox?: "docker" | "local";
  failingTests: string[];
  localization?: Result["localization"];
  /** Set when a localizer with several runs ranked the functions. */
  localizationRuns?: { agreement: number; total: number };
  steps: StepRecord[];
  patches: { candidate: Candidate; validation: Validation }[];
  chosen?: { candidate: Candidate; validation: Validation };
  reproduction: { failedRuns: number; totalRuns: number };
  reproduced?: boolean;
  done?: boolean;
  experiments?: number;
  suiteBefore?: { passed: number; failed: number };
  suiteAfter?: { passed: number; failed: number };
}

interface FinishExtra {
  audit: Audit;
}

function assemble(
  options: FixOptions,
  state: PartialState,
  status: Result["status"],
  reason: string,
  timings: Record<string, number>,
  started: number,
  extra: Partial<FinishExtra>,
): FixOutcome {
  const audit = extra.audit ?? {
    ...EMPTY_AUDIT,
    notes: status === "fixed" ? [] : ["no validated patch to audit"],
  };
  const patches: Patch[] = state.patches.map(({ candidate, validation }) => ({
    diff: validation.diff,
    plausible: validation.plausible,
    testsRun: validation.testsRun,
    testsFailed: validation.testsFailed,
    brokenTests: validation.brokenTests,
    ...(candidate.fromStep !== undefined ? { fromStep: candidate.fromStep } : {}),
    ...(validation.rejectedBecause ? { rejectedBecause: validation.rejectedBecause } : {}),
  }));
  // The proposed patch goes first so every consumer finds it at patches[0].
  const chosenIndex = state.chosen ? state.patches.indexOf(state.chosen) : -1;
  if (chosenIndex > 0) patches.unshift(...patches.splice(chosenIndex, 1));
  const localization = state.localization ?? [];
  const top = localization[0];
  const at = state.chosen?.candidate.at;
  const agreement =
    state.localizationRuns?.agreement ??
    (top && at
      ? top.file === at.file && (at.function === undefined || top.function === at.function)
        ? 1
        : 0
      : 0);
  const claimsAudit = auditVerdict(audit);
  timings.total = Date.now() - started;
  const result = resultSchema.parse({
    status,
    reason,
    failingTests: state.failingTests,
    localization,
    steps: state.steps.map(({ hypothesis, prediction, experiment, observation, conclusion, done }) => ({
      hypothesis,
      prediction,
      experiment,
      observation,
      conclusion,
      done,
    })),
    patches,
    confidence: {
      done: state.done ?? false,
      reproduced: state.reproduced ?? false,
      suitePasses: status === "fixed",
      localizationAgreement: agreement,
      audit: status === "fixed" ? claimsAudit : "not-run",
    },
    audit,
    timings,
    usage: options.usage?.() ?? { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
    engine: options.engine.name,
  });
  const meta: ReportMeta = {
    ...(options.headSha ? { headSha: options.headSha } : {}),
    ...(options.ci ? { ci: options.ci } : {}),
    sandbox: state.sandbox ?? "local",
    reproduction: state.reproduction,
    ...(state.suiteBefore ? { suiteBefore: state.suiteBefore } : {}),
    ...(state.suiteAfter ? { suiteAfter: state.suiteAfter } : {}),
    maxSteps: options.repoConfig.max_iterations,
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
  return { result, report, patch: status === "fixed" ? (result.patches[0]?.diff ?? "") : "" };
}

/** Test ids or paths the suite is limited to, from `test_command: pytest tests/unit`. */
function suiteSelection(config: RepoConfig): string[] | undefined {
  const argv = commandArgv(config.test_command);
  if (!argv) return undefined;
  const args = argv.filter(
    (a, i) =>
      !(i === 0 && /pytest$/.test(a)) &&
      !(a === "-m" && argv[i + 1] === "pytest") &&
      a !== "pytest" &&
      !a.startsWith("-"),
  );
  return args.length > 0 ? args : undefined;
}

function makeValidator(
  sandbox: Sandbox,
  runtime: PythonRuntime,
  baseline: TestRun,
  failing: string[],
  suiteIds: string[] | undefined,
  rules: PathRules,
  timeoutMs: number,
): (candidate: Candidate) => Promise<Validation> {
  const passedBefore = baseline.tests.filter((t) => t.outcome === "passed").map((t) => t.id);
  return async (candidate) => {
    const diff = candidate.edits
      .map((e) =>
        createTwoFilesPatch(`a/${e.file}`, `b/${e.file}`, e.before, e.after, undefined, undefined, {
          context: 3,
        }).replace(/^=+\n/, ""),
      )
      .join("");
    const refused = candidate.edits.map((e) => forbiddenPath(e.file, rules)).find((r) => r !== undefined);
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
      const run = await runtime.runTests(suiteIds, { timeoutMs });
      const extra = failing.filter((id) => !run.tests.some((t) => t.id === id));
      if (extra.length > 0) run.tests.push(...(await runtime.runTests(extra, { timeoutMs })).tests);
      const outcome = new Map(run.tests.map((t) => [t.id, t.outcome]));
      const stillFailing = failing.filter((id) => outcome.get(id) !== "passed");
      const brokenTests = passedBefore.filter((id) => outcome.get(id) !== "passed");
      const testsFailed = run.tests.filter(isFailure).length;
      const rejectedBecause = run.timedOut
        ? "the suite timed out with the patch"
        : run.errors.length > 0 && run.tests.length === 0
          ? `the suite does not run with the patch: ${firstLine(run.errors[0]!)}`
          : stillFailing.length > 0
            ? `${stillFailing.join(", ")} still fail${stillFailing.length === 1 ? "s" : ""}`
            : brokenTests.length > 0
              ? `breaks ${brokenTests.length} test(s) that passed before`
              : undefined;
      return {
        plausible: rejectedBecause === undefined,
        testsRun: run.tests.length,
        testsFailed,
        brokenTests,
        stillFailing,
        ...(rejectedBecause ? { rejectedBecause } : {}),
        diff,
      };
    } finally {
      await sandbox.restore(snapshot);
    }
  };
}

function isFailure(t: TestResult): boolean {
  return t.outcome === "failed" || t.outcome === "error";
}

function counts(run: TestRun): { passed: number; failed: number } {
  return {
    passed: run.tests.filter((t) => t.outcome === "passed").length,
    failed: run.tests.filter(isFailure).length,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
