/**
 * How far an edit moved the failing test's failure, for combining edits into two-edit
 * patches: an edit that gets the test further (a later assertion fails, a compared number
 * half as far from its expected value or right up to its sign) is a likely half of a
 * two-place fix; one that swaps the exception for another may be; one that breaks the
 * program (a NameError, a syntax error, a hang) is not. Pure.
 */
import type { TestFailure } from "../lang/types.js";

/** 0: no progress (or the program broke), 1: the failure changed, 2: the test got clearly further. */
export type Progress = 0 | 1 | 2;

const BROKEN =
  /^(SyntaxError|IndentationError|NameError|UnboundLocalError|TestTimeout|ImportError|ModuleNotFoundError|RecursionError)$/;

/** `assert -18 == 12` → [-18, 12]. */
function numbers(message: string): [number, number] | undefined {
  const m = /^assert (-?\d+(?:\.\d+)?) == (-?\d+(?:\.\d+)?)\s*$/m.exec(message);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** The line of the test file the failure went through last (the assertion that failed). */
function testLine(failure: TestFailure, testFile: string): number | undefined {
  return [...failure.frames].reverse().find((f) => f.file === testFile)?.line;
}

export function progress(before: TestFailure, after: TestFailure | undefined, testFile: string): Progress {
  if (!after || BROKEN.test(after.type)) return 0;
  const was = testLine(before, testFile);
  const now = testLine(after, testFile);
  if (was !== undefined && now !== undefined && now > was) return 2;
  if (after.type !== before.type) return 1;
  if (after.message === before.message) return 0;
  const a = numbers(before.message);
  const b = numbers(after.message);
  if (a && b && a[1] === b[1]) {
    const [actual, expected] = a;
    const [moved] = b;
    const dist = Math.abs(actual - expected);
    if (moved !== expected && Math.abs(moved) === Math.abs(expected)) return 2;
    if (Math.abs(moved - expected) * 2 <= dist) return 2;
    return Math.abs(moved - expected) < dist ? 1 : 0;
  }
  return 1;
}
