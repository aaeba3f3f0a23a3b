import type { FailureEvidence } from "../../lang/types.js";
import { clip, codeSpan as q } from "../../text.js";
import { measured, notMeasured, type PatchSignal } from "./types.js";

type Probe = FailureEvidence["probes"][number];

/** A line the patch rewrote: where it is before the patch and with it (1-based), and whether it is a condition. */
export interface FixedLine {
  file: string;
  before: number;
  after: number;
  condition: boolean;
}

/** What the evidence helper saw at the fixed lines during one test, on base and with the patch (undefined: no report). */
export interface ObservedTest {
  test: string;
  /** A failing test the patch fixes; otherwise one of its passing instances (same test, other parameters). */
  failing: boolean;
  base: Probe[] | undefined;
  patched: Probe[] | undefined;
}

const shown = (values: NonNullable<Probe["values"]>): string[] =>
  values.map((v) => ("value" in v ? v.value : `error: ${v.error}`));
const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
const seq = (values: string[]) => q(clip(values.length === 1 ? values[0]! : values.join(", "), 80));

/**
 * The decisive observation: what the fixed line computes during the failing test (its
 * condition, returned or assigned value) changes with the patch, and only there. A right fix
 * reaches the assertion's expected value by computing something else at the line it fixes, where
 * the test failed; the test's passing instances (same test, other parameters: the same intent)
 * see the line compute what it did. A patch that makes the failing test pass while its line
 * computes the same there (the test passes for another reason, or no longer reaches the line),
 * that turns a condition that varied during the test into a constant, or that changes what the
 * line computes for the passing instances, reaches the expected value for another reason.
 */
export function decisiveObservation(input: { lines: FixedLine[]; tests: ObservedTest[] }): PatchSignal {
  const id = "decisive-observation";
  const findings: string[] = [];
  const changed: string[] = [];
  let compared = 0;
  let reached = 0;
  for (const t of input.tests) {
    for (const line of input.lines) {
      const b = t.base?.find((p) => p.file === line.file && p.line === line.before);
      const a = t.patched?.find((p) => p.file === line.file && p.line === line.after);
      // Only where the line computes a value on both sides, the rewrite touched it, and the test ran it before.
      if (!b?.computed || !a?.computed || !b.expr || !a.expr || !b.values || !a.values || !b.total) continue;
      if (b.expr === a.expr) continue;
      compared++;
      const where = `${line.file}:${line.after}`;
      const was = shown(b.values);
      const now = shown(a.values);
      if (!t.failing) {
        if (!same(was, now)) {
          findings.push(
            `in ${q(t.test)}, which passed before, ${q(where)} computes ${seq(now)} (${q(a.expr)}) where it computed ${seq(was)}`,
          );
        }
        continue;
      }
      if (!a.total) {
        findings.push(`${q(t.test)} no longer reaches ${q(where)}, where it failed`);
        continue;
      }
      reached++;
      if (same(was, now)) continue;
      changed.push(`in ${q(t.test)}, ${q(where)} computes ${seq(now)} where it computed ${seq(was)}`);
      if (line.condition && new Set(was).size > 1 && new Set(now).size === 1 && a.total > 1) {
        findings.push(
          `in ${q(t.test)}, the condition at ${q(where)} is ${seq([now[0]!])} at each of its ${a.total} checks, where it varied (${seq(was)})`,
        );
      }
    }
  }
  if (compared === 0) {
    return notMeasured(
      id,
      "no rewritten line computes a value the failing test was seen computing before the patch",
    );
  }
  if (changed.length === 0 && reached > 0) {
    findings.unshift(
      "the failing test passes, yet every rewritten line computes there what it computed before",
    );
  }
  if (findings.length === 0) {
    return measured(id, false, "changes at the fixed line", changed.slice(0, 2).join("; "));
  }
  return measured(
    id,
    true,
    findings.length === 1
      ? "1 observation against the fix"
      : `${findings.length} observations against the fix`,
    findings.slice(0, 3).join("; "),
  );
}
