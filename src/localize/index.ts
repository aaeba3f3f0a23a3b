import type { CoverageReport, FunctionInfo, Runtime, TestFailure, TestResult } from "../lang/types.js";
import type { Logger } from "../log.js";
import type { ChatModel } from "../llm/types.js";
import type { EngineKind, LocalizationEntry } from "../result.js";
import { autofl, type AutoflRun } from "./autofl.js";
import { compareScores, sbfl, type SbflFormula, type SbflResult, type SuspiciousLine } from "./sbfl.js";

export { sbfl, suspiciousness } from "./sbfl.js";
export type { SbflFormula, SbflInput, SbflResult, SuspiciousLine } from "./sbfl.js";
export { autofl, DEFAULT_MAX_CALLS, DEFAULT_RUNS } from "./autofl.js";
export type { AutoflInput, AutoflResult, AutoflRun } from "./autofl.js";

export interface LocalizeOptions {
  runtime: Runtime;
  /** Reads repository files (the Sandbox does): test snippets and the model's code look-ups. */
  files: { readFile(path: string): Promise<string> };
  failingTests: string[];
  engine: EngineKind;
  /** Required for the llm engine. */
  model?: ChatModel;
  /** Coverage of the whole suite when the caller already has it; measured otherwise. */
  coverage?: CoverageReport;
  /** The failing tests' results (with their failures) when already run; the llm engine runs them otherwise. */
  failures?: TestResult[];
  /** Test functions (runtime.functions({ includeTests: true })) when the caller has them; listed otherwise. */
  testFunctions?: FunctionInfo[];
  /** Default Ochiai. */
  formula?: SbflFormula;
  /** AutoFL's R (default 5) and N (default 10). */
  runs?: number;
  maxCalls?: number;
  temperature?: number;
  log?: Logger;
}

export interface Localization {
  /** The engine whose ranking `entries` is: `offline` also when the model failed and SBFL stood in. */
  engine: EngineKind;
  /** Ranked suspicious functions (result.json `localization`). */
  entries: LocalizationEntry[];
  /** SBFL's ranked lines, for the debugger's breakpoints. */
  lines: SuspiciousLine[];
  /**
   * 0..1, the confidence flag: for AutoFL the share of runs that named the top
   * function; for SBFL 1 / (functions sharing the top score), since it has no runs.
   */
  agreement: number;
  sbfl: SbflResult;
  /** What a reader should know: fallbacks, unmatched names, tests without coverage. */
  notes: string[];
  /** AutoFL's runs, message by message. */
  transcript?: AutoflRun[];
  coverage: CoverageReport;
}

/** Ranks the functions and lines most likely responsible for the failing tests. */
export async function localize(options: LocalizeOptions): Promise<Localization> {
  const { runtime, failingTests } = options;
  const notes: string[] = [];
  const coverage = options.coverage ?? (await runtime.coverage());
  const missing = failingTests.filter((id) => coverage.perTest[id] === undefined);
  if (missing.length > 0) notes.push(`No coverage was recorded for ${missing.join(", ")}.`);
  const spectrum = sbfl({ coverage, failingTests, ...(options.formula ? { formula: options.formula } : {}) });
  const offline: Localization = {
    engine: "offline",
    entries: spectrum.functions,
    lines: spectrum.lines,
    agreement: topTieAgreement(spectrum.functions),
    sbfl: spectrum,
    notes,
    coverage,
  };
  if (options.engine === "offline") {
    options.log?.info({ engine: "offline", top: spectrum.functions[0]?.function }, "localized");
    return offline;
  }
  if (!options.model) throw new Error("localize: the llm engine needs a model");

  const results = options.failures ?? (await runtime.runTests(failingTests)).tests;
  const failures = new Map<string, TestFailure | undefined>(failingTests.map((id) => [id, undefined]));
  for (const t of results) if (failures.has(t.id)) failures.set(t.id, t.failure);
  const result = await autofl({
    model: options.model,
    failingTests,
    failures,
    coverage,
    testFunctions: options.testFunctions ?? (await runtime.functions({ includeTests: true })),
    readFile: (path) => options.files.readFile(path),
    sbfl: spectrum,
    language: runtime.language,
    ...(options.runs !== undefined ? { runs: options.runs } : {}),
    ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  for (const run of result.runs) {
    if (run.problem) notes.push(`AutoFL run ${run.index + 1} contributed nothing: ${run.problem}.`);
    if (run.unmatched.length > 0) {
      notes.push(`AutoFL run ${run.index + 1} named unknown functions: ${run.unmatched.join("; ")}.`);
    }
  }
  if (!result.contributed) {
    notes.push("The model named no function of the project in any run; the ranking is SBFL's.");
    return { ...offline, notes, transcript: result.runs };
  }
  options.log?.info(
    {
      engine: "llm",
      top: result.entries[0]?.function,
      agreement: result.agreement,
      runs: result.runs.length,
    },
    "localized",
  );
  return {
    engine: "llm",
    entries: result.entries,
    lines: spectrum.lines,
    agreement: result.agreement,
    sbfl: spectrum,
    notes,
    transcript: result.runs,
    coverage,
  };
}

function topTieAgreement(entries: LocalizationEntry[]): number {
  const top = entries[0];
  if (!top) return 0;
  return 1 / entries.filter((e) => compareScores(e.score, top.score) === 0).length;
}
