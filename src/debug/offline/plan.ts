import { functionLocator, type SuspiciousLine } from "../../localize/sbfl.js";
import type { FailureEvidence, FunctionInfo, Runtime } from "../../lang/types.js";
import { applyEdits } from "../../lang/experiment.js";
import type { Budget } from "../budget.js";
import { failureOnly, scoreCandidate } from "../evidence.js";
import { generateCandidates, type EngineCandidate } from "../generate.js";
import { breadthFirst, lineWeight, linesToTry } from "../schedule.js";
import { editShape } from "../shape.js";
import type { BugContext } from "../types.js";

/** Lines tried at most, so a flat SBFL ranking cannot spend the budget on hundreds of ties. */
const MAX_LINES = 25;
/** Lines the first failing test never ran that are still tried (after a first fix, against another failing test). */
const MAX_OTHER_LINES = 10;

export interface PlannedHypothesis {
  rank: number;
  /** Schedulable: the line's rank, the generator's prior and the evidence's score. */
  lineRank: number;
  prior: number;
  score: number;
  weight: number;
  because?: string;
  /** The suspicious line the candidate belongs to (probed before it is tried). */
  susp: SuspiciousLine;
  /** False when the candidate's line is not itself among the suspicious lines. */
  suspicious: boolean;
  text: string;
  source: string;
  fn: FunctionInfo | undefined;
  /** What to print at the suspicious line before editing it (from the evidence helper). */
  probe?: FailureEvidence["probes"][number];
  candidate: EngineCandidate;
}

/**
 * The hypotheses in the order they are tried: the lines to try, the failing test run once
 * under the evidence helper at them, every candidate there scored by its evidence, and the
 * whole ordered breadth-first (schedule.ts).
 */
export async function planRun(
  bug: BugContext,
  runtime: Runtime,
  budget: Budget,
  minScore: number,
): Promise<PlannedHypothesis[]> {
  const lines = linesToTry(
    bug.suspicious.filter((l) => l.score > minScore),
    (l) => bug.reaches?.(bug.primaryTest, l.file, l.line),
    MAX_LINES,
    MAX_OTHER_LINES,
  );
  const evidence =
    (await runtime.evidence(bug.primaryTest, {
      lines: lines.map((l) => ({ file: l.file, line: l.line })),
      timeoutMs: Math.max(1_000, Math.min(2 * bug.experimentTimeoutMs, budget.remainingMs())),
    })) ?? failureOnly(bug.failure);
  return breadthFirst(await planHypotheses(bug, runtime, lines, evidence));
}

/** Every candidate as a hypothesis, with the evidence's score; breadthFirst orders them. */
async function planHypotheses(
  bug: BugContext,
  runtime: Runtime,
  lines: SuspiciousLine[],
  evidence: FailureEvidence | undefined,
): Promise<PlannedHypothesis[]> {
  const plan: PlannedHypothesis[] = [];
  const found = await generateCandidates(
    runtime,
    lines,
    evidence,
    2 * bug.experimentTimeoutMs + 10_000,
    bug.failingTests,
  );
  const top = Math.max(0, ...lines.map((l) => l.score));
  const functionAt = functionLocator(bug.functions);
  for (const candidate of found) {
    const source = await bug.readSource(candidate.file);
    const all = source.split("\n");
    const fn = functionAt(candidate.file, candidate.line);
    const exact = lines.findIndex((l) => l.file === candidate.file && l.line === candidate.suspect);
    const susp: SuspiciousLine = lines[exact] ?? {
      file: candidate.file,
      line: candidate.suspect,
      score: 0,
      failed: 0,
      passed: 0,
      ...(fn ? { function: fn.qualname } : {}),
    };
    const lineRank = exact >= 0 ? exact : lines.length;
    const changed = all[candidate.line - 1] ?? "";
    const first = candidate.edits[0];
    const shape =
      first?.op === "ADD"
        ? editShape(changed, undefined, first.stmt)
        : editShape(changed, applyEdits(source, candidate.edits).source.split("\n")[candidate.line - 1]);
    const scored = scoreCandidate(
      {
        file: candidate.file,
        line: candidate.line,
        ...(fn
          ? {
              function: {
                name: fn.qualname.split(".").at(-1)!,
                startLine: fn.startLine,
                endLine: fn.endLine,
              },
            }
          : {}),
        family: candidate.family,
        shape,
      },
      evidence,
    );
    const probe = evidence?.probes.find((p) => p.file === susp.file && p.line === susp.line);
    plan.push({
      rank: lineRank,
      lineRank,
      weight: lineWeight(susp.score, top),
      prior: candidate.prior,
      score: scored.score,
      ...(scored.because ? { because: scored.because } : {}),
      susp,
      suspicious: exact >= 0,
      text: all[susp.line - 1] ?? "",
      source,
      fn,
      ...(probe ? { probe } : {}),
      candidate,
    });
  }
  return plan;
}
