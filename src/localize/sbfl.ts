import type { CoverageReport, ExceptionCause, Frame, FunctionInfo, TestFailure } from "../lang/types.js";
import type { LocalizationEntry } from "../result.js";

export type SbflFormula = "ochiai" | "dstar";

export interface SbflInput {
  coverage: CoverageReport;
  /** The failing tests under repair. Other tests count as passing only when their outcome is `passed`. */
  failingTests: string[];
  /** Default: Ochiai. */
  formula?: SbflFormula;
  /**
   * Rank first the functions where a failing test's exception started when it was caught and
   * re-raised (the chains in `coverage.failures`); default true. False: the plain spectrum.
   */
  followCauses?: boolean;
}

/** A function on the traceback of an exception a failing test's failure was raised from. */
export interface CauseSite {
  file: string;
  function: string;
  /** The frame's line in that function (the innermost one when several). */
  line: number;
  /** Failing tests whose exception chain passes through the function. */
  tests: number;
  /** Frames between it and where the chain started (0: the root cause's innermost repository frame). */
  depth: number;
  /** `the failing test's ValueError started at line 3 and was re-raised as OrderError`, for the reason. */
  story: string;
}

/** One line executed by at least one failing test. */
export interface SuspiciousLine {
  file: string;
  line: number;
  /** Qualified name of the innermost function holding the line; absent for module-level code. */
  function?: string;
  score: number;
  /** Failing tests that executed the line (e_f). */
  failed: number;
  /** Passing tests that executed the line (e_p). */
  passed: number;
}

export interface SbflResult {
  formula: SbflFormula;
  totalFailed: number;
  totalPassed: number;
  /** Ranked most suspicious first; ties ordered by fewer passing executions, then file, then line. */
  lines: SuspiciousLine[];
  /** Functions holding a suspicious line, each scored by its most suspicious line (max aggregation, as Zou et al.);
   * functions on a failure's cause chain first (see `causes`). */
  functions: LocalizationEntry[];
  /** Functions where the failing tests' caught-and-re-raised exceptions started, most telling first;
   * empty when no failure has a chain (the ranking is then the plain spectrum). */
  causes: CauseSite[];
}

/** DStar's denominator is zero for an element every failing and no passing test ran:
 * counting it as 1/2 ranks such elements above every finite score while keeping JSON finite. */
const DSTAR_ZERO_DENOMINATOR = 0.5;

export function suspiciousness(
  formula: SbflFormula,
  failed: number,
  passed: number,
  totalFailed: number,
): number {
  if (failed === 0) return 0;
  if (formula === "ochiai") return failed / Math.sqrt(totalFailed * (failed + passed));
  const denominator = passed + (totalFailed - failed);
  return (failed * failed) / (denominator === 0 ? DSTAR_ZERO_DENOMINATOR : denominator);
}

const FORMULA_NAME: Record<SbflFormula, string> = { ochiai: "Ochiai", dstar: "DStar" };

/** Spectrum-based fault localization over per-test line coverage. Pure and deterministic. */
export function sbfl(input: SbflInput): SbflResult {
  const formula = input.formula ?? "ochiai";
  const failing = new Set(input.failingTests);
  const passing = Object.keys(input.coverage.perTest).filter(
    (id) => !failing.has(id) && input.coverage.outcomes[id] === "passed",
  );
  const totalFailed = failing.size;

  const counts = new Map<string, { file: string; line: number; failed: number; passed: number }>();
  const count = (testIds: Iterable<string>, key: "failed" | "passed") => {
    for (const id of testIds) {
      const lineCoverage = input.coverage.perTest[id] ?? {};
      for (const [file, lines] of Object.entries(lineCoverage)) {
        for (const line of new Set(lines)) {
          const k = `${file}\0${line}`;
          let c = counts.get(k);
          if (!c) {
            c = { file, line, failed: 0, passed: 0 };
            counts.set(k, c);
          }
          c[key] += 1;
        }
      }
    }
  };
  count(failing, "failed");
  count(passing, "passed");

  const locate = functionLocator(input.coverage.functions);
  const lines: SuspiciousLine[] = [];
  for (const c of counts.values()) {
    if (c.failed === 0) continue;
    const fn = locate(c.file, c.line);
    lines.push({
      file: c.file,
      line: c.line,
      ...(fn ? { function: fn.qualname } : {}),
      score: suspiciousness(formula, c.failed, c.passed, totalFailed),
      failed: c.failed,
      passed: c.passed,
    });
  }
  const causes =
    input.followCauses === false ? [] : causeSites(input.coverage.failures ?? {}, [...failing], locate);
  const causeOf = new Map(causes.map((c, i) => [`${c.file}\0${c.function}`, i]));
  const tier = (l: SuspiciousLine) =>
    l.function === undefined ? causes.length : (causeOf.get(`${l.file}\0${l.function}`) ?? causes.length);
  lines.sort((a, b) => tier(a) - tier(b) || compareLines(a, b));

  // Lines are sorted, so the first line seen for a function is its most suspicious one.
  const best = new Map<string, SuspiciousLine>();
  for (const l of lines) {
    if (l.function === undefined) continue;
    const key = `${l.file}\0${l.function}`;
    if (!best.has(key)) best.set(key, l);
  }
  const functions = [...best.values()].map((l, i): LocalizationEntry => {
    const cause = causes[tier(l)];
    return {
      rank: i + 1,
      file: l.file,
      function: l.function ?? "",
      line: cause?.line ?? l.line,
      score: l.score,
      reason: describeLine(formula, l, totalFailed, passing.length) + (cause ? `; ${cause.story}` : ""),
    };
  });
  return { formula, totalFailed, totalPassed: passing.length, lines, functions, causes };
}

/**
 * The links of a failure's chain that are re-raises, nearest first: an explicit `raise ... from`,
 * or an exception raised by the very function that caught the previous one (a wrapper raised in
 * the `except` block). An exception raised deeper while handling another (a lookup's KeyError
 * handled, then an unrelated error in the fallback) has its own raise site: the walk stops there.
 */
function reraisedChain(
  failure: TestFailure,
  locate: (file: string, line: number) => FunctionInfo | undefined,
): ExceptionCause[] {
  const where = (frame: Frame | undefined) => {
    if (frame === undefined) return undefined;
    const fn = locate(frame.file, frame.line);
    return fn ? `${fn.file}\0${fn.qualname}` : `${frame.file}\0${frame.function}`;
  };
  const followed: ExceptionCause[] = [];
  let raisedAt = failure.frames.at(-1);
  for (const cause of failure.causes ?? []) {
    const caughtIn = cause.frames[0];
    if (!cause.explicit && (where(raisedAt) === undefined || where(raisedAt) !== where(caughtIn))) break;
    followed.push(cause);
    raisedAt = cause.frames.at(-1);
  }
  return followed;
}

/**
 * The functions on the tracebacks of the exceptions the failing tests' failures were re-raised
 * from, walked from where the chain started (the root cause's innermost repository frame)
 * outwards; ordered by how many failing tests' chains reach them, then by that walk.
 * Frames outside every known function (module level, test files) are skipped.
 */
function causeSites(
  failures: Record<string, TestFailure>,
  failingTests: readonly string[],
  locate: (file: string, line: number) => FunctionInfo | undefined,
): CauseSite[] {
  const sites = new Map<string, CauseSite>();
  for (const id of [...failingTests].sort(compareText)) {
    const failure = failures[id];
    if (failure === undefined) continue;
    const chain = reraisedChain(failure, locate);
    const seen = new Set<string>();
    let depth = 0;
    // Root cause first, innermost frame first: where the failure started, then who caught it.
    for (const [i, cause] of [...chain.entries()].reverse()) {
      const raisedAs = i === 0 ? failure.type : chain[i - 1]!.type;
      for (const frame of [...cause.frames].reverse()) {
        const fn = locate(frame.file, frame.line);
        if (fn === undefined) continue;
        const key = `${fn.file}\0${fn.qualname}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const site = sites.get(key);
        if (site) {
          site.tests += 1;
          site.depth = Math.min(site.depth, depth);
        } else {
          sites.set(key, {
            file: fn.file,
            function: fn.qualname,
            line: frame.line,
            tests: 1,
            depth,
            story: `the failing test's ${cause.type} ${depth === 0 ? "started" : "passed"} at line ${frame.line} and was re-raised as ${raisedAs}`,
          });
        }
        depth += 1;
      }
    }
  }
  return [...sites.values()].sort(
    (a, b) =>
      b.tests - a.tests ||
      a.depth - b.depth ||
      compareText(a.file, b.file) ||
      compareText(a.function, b.function),
  );
}

/** The rank `entry` would have with every tie resolved against it: the functions in its cause
 * tier (or a higher one) scoring at least as high. For benchmarks' worst-case accuracy. */
export function worstCaseRank(result: SbflResult, entry: LocalizationEntry): number {
  const tier = (e: LocalizationEntry) => {
    const i = result.causes.findIndex((c) => c.file === e.file && c.function === e.function);
    return i < 0 ? result.causes.length : i;
  };
  const own = tier(entry);
  return result.functions.filter(
    (e) => tier(e) < own || (tier(e) === own && compareScores(e.score, entry.score) <= 0),
  ).length;
}

export function describeLine(
  formula: SbflFormula,
  l: SuspiciousLine,
  totalFailed: number,
  totalPassed: number,
): string {
  return (
    `line ${l.line} executed by ${l.failed}/${totalFailed} failing and ${l.passed}/${totalPassed} passing tests; ` +
    `${FORMULA_NAME[formula]} ${l.score.toFixed(2)}`
  );
}

/** Scores closer than this are a tie: the same ratio computed two ways differs in the last bits. */
const SCORE_EPSILON = 1e-9;

export function compareScores(a: number, b: number): number {
  return Math.abs(a - b) < SCORE_EPSILON ? 0 : b - a;
}

function compareLines(a: SuspiciousLine, b: SuspiciousLine): number {
  return (
    compareScores(a.score, b.score) || a.passed - b.passed || compareText(a.file, b.file) || a.line - b.line
  );
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Maps a line to the innermost function whose range holds it. */
export function functionLocator(
  functions: FunctionInfo[],
): (file: string, line: number) => FunctionInfo | undefined {
  const byFile = new Map<string, FunctionInfo[]>();
  for (const f of functions) {
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  return (file, line) => {
    let inner: FunctionInfo | undefined;
    for (const f of byFile.get(file) ?? []) {
      if (line < f.startLine || line > f.endLine) continue;
      if (!inner || f.endLine - f.startLine < inner.endLine - inner.startLine) inner = f;
    }
    return inner;
  };
}
