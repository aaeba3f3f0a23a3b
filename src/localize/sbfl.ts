import type { CoverageReport, FunctionInfo } from "../lang/python/types.js";
import type { LocalizationEntry } from "../result.js";

export type SbflFormula = "ochiai" | "dstar";

export interface SbflInput {
  coverage: CoverageReport;
  /** The failing tests under repair. Other tests count as passing only when their outcome is `passed`. */
  failingTests: string[];
  /** Default: Ochiai. */
  formula?: SbflFormula;
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
  /** Functions holding a suspicious line, each scored by its most suspicious line (max aggregation, as Zou et al.). */
  functions: LocalizationEntry[];
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
  lines.sort(compareLines);

  // Lines are sorted, so the first line seen for a function is its most suspicious one.
  const best = new Map<string, SuspiciousLine>();
  for (const l of lines) {
    if (l.function === undefined) continue;
    const key = `${l.file}\0${l.function}`;
    if (!best.has(key)) best.set(key, l);
  }
  const functions = [...best.values()].map((l, i): LocalizationEntry => ({
    rank: i + 1,
    file: l.file,
    function: l.function ?? "",
    line: l.line,
    score: l.score,
    reason: describeLine(formula, l, totalFailed, passing.length),
  }));
  return { formula, totalFailed, totalPassed: passing.length, lines, functions };
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
