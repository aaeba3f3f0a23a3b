import { forbiddenPath, type PathRules } from "../debug/guards.js";
import type { CoverageReport, Runtime, TestResult } from "../lang/types.js";
import { sbfl, type SuspiciousLine } from "../localize/sbfl.js";
import type { Result } from "../result.js";
import type { Sandbox } from "../sandbox/types.js";

export interface LocalizerInput {
  sandbox: Sandbox;
  runtime: Runtime;
  coverage: CoverageReport;
  failingTests: string[];
  failures: TestResult[];
}

export interface LocalizerOutput {
  entries: Result["localization"];
  /** Share of the runs whose first answer was the top function (AutoFL's confidence), and how many ran. */
  agreement: number;
  runs: number;
  /** Why the localizer contributed nothing (its entries are then SBFL's), when it did not. */
  unavailable?: string;
}

/** A localizer beside SBFL (AutoFL for the llm engine). */
export type Localizer = (input: LocalizerInput) => Promise<LocalizerOutput>;

export interface Localized {
  coverage: CoverageReport;
  /** Ranked functions, at most 10, only where a patch may go; ranks from 1. */
  localization: Result["localization"];
  /** Set when a localizer with several runs ranked the functions. */
  localizationRuns?: { agreement: number; total: number };
  /** Why the localizer (AutoFL) contributed nothing, so SBFL's ranking stands. */
  localizerUnavailable?: string;
  /** Lines a patch may change, most suspicious first (the localizer's functions first). */
  suspicious: SuspiciousLine[];
  /** Why nothing is suspicious, when `suspicious` is empty. */
  nothing?: string;
}

/** SBFL over per-test coverage, then the localizer when there is one; only lines a patch may touch are kept. */
export async function localizePhase(
  sandbox: Sandbox,
  runtime: Runtime,
  options: {
    suiteIds: string[] | undefined;
    failingTests: string[];
    failures: TestResult[];
    rules: PathRules;
    localizer?: Localizer;
  },
): Promise<Localized> {
  const { rules } = options;
  const allowed = (file: string) => forbiddenPath(file, rules) === undefined;
  const coverage = await runtime.coverage(options.suiteIds);
  const ranking = sbfl({ coverage, failingTests: options.failingTests });
  let localization = ranking.functions.filter((f) => allowed(f.file)).slice(0, 10);
  let localizationRuns: Localized["localizationRuns"];
  let localizerUnavailable: string | undefined;
  let suspicious = ranking.lines.filter((l) => allowed(l.file));
  if (options.localizer) {
    const found = await options.localizer({
      sandbox,
      runtime,
      coverage,
      failingTests: options.failingTests,
      failures: options.failures,
    });
    const entries = found.entries.filter((f) => allowed(f.file));
    if (found.unavailable !== undefined || found.runs === 0) {
      localizerUnavailable = found.unavailable ?? "no localizer run finished";
    } else if (entries.length > 0) {
      localization = entries.slice(0, 10);
      localizationRuns = { agreement: found.agreement, total: found.runs };
      suspicious = byFunctionRank(suspicious, entries);
    }
  }
  localization.forEach((f, i) => (f.rank = i + 1));
  const result: Localized = {
    coverage,
    localization,
    suspicious,
    ...(localizationRuns ? { localizationRuns } : {}),
    ...(localizerUnavailable !== undefined ? { localizerUnavailable } : {}),
  };
  if (suspicious.length === 0) {
    const outside = ranking.lines.find((l) => l.score > 0 && !allowed(l.file));
    result.nothing = outside ? forbiddenPath(outside.file, rules)! : "the failing test runs no source line";
  }
  return result;
}

/** The debugger looks first at the lines of the functions the localizer ranked highest. */
function byFunctionRank(lines: SuspiciousLine[], ranked: Result["localization"]): SuspiciousLine[] {
  const rank = (l: SuspiciousLine) => {
    const i = ranked.findIndex((f) => f.file === l.file && f.function === l.function);
    return i < 0 ? ranked.length : i;
  };
  return lines
    .map((l, order) => ({ l, order }))
    .sort((a, b) => rank(a.l) - rank(b.l) || a.order - b.order)
    .map(({ l }) => l);
}

/** Whether a test executed a line in the coverage run: undefined for a test the run did not record. */
export function coverageReaches(
  coverage: CoverageReport,
): (test: string, file: string, line: number) => boolean | undefined {
  const sets = new Map<string, Set<string>>();
  return (test, file, line) => {
    const perFile = coverage.perTest[test];
    if (perFile === undefined) return undefined;
    let lines = sets.get(test);
    if (!lines) {
      lines = new Set(Object.entries(perFile).flatMap(([f, ls]) => ls.map((l) => `${f}\0${l}`)));
      sets.set(test, lines);
    }
    return lines.has(`${file}\0${line}`);
  };
}
