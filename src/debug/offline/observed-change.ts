import { applyEdits } from "../../lang/experiment.js";
import { codeSpan as code } from "../../text.js";
import { observe } from "./attempt.js";
import type { PlannedHypothesis } from "./plan.js";
import type { OfflineRun } from "./state.js";

/**
 * The behaviour change a validated `return` edit makes, as a checkable claim: the
 * function's arguments and the returned value before and with the edit, read with
 * one debugger experiment at the line during the failing test (single hits only).
 * The audit checks it against the calls it records and replays.
 */
export async function observedChange(run: OfflineRun, item: PlannedHypothesis): Promise<string | undefined> {
  const { runtime, budget, bug } = run;
  const { susp, fn, source, candidate, probe } = item;
  const returned = probe?.returned;
  const params = probe?.params;
  if (!fn || !returned || !params || params.length === 0 || budget.exhausted()) return undefined;
  if (candidate.edits.some((e) => e.line !== susp.line || e.op !== "REPLACE")) return undefined;
  const edited = applyEdits(source, candidate.edits).source.split("\n")[susp.line - 1]!.trim();
  if (!edited.startsWith("return ")) return undefined;
  const expression = `(${returned}, ${edited.slice("return".length).trim()}, (${params.join(", ")},))`;
  const obs = await observe(
    runtime,
    budget,
    bug,
    `b ${susp.file}:${susp.line} ;; c ;; p ${expression}`,
    bug.primaryTest,
  );
  const values = obs.kind === "debugger" ? tupleItems(obs.observation.trim()) : undefined;
  if (values?.length !== 3) return undefined;
  const [before, after, args] = values as [string, string, string];
  if (before === after) return undefined;
  return `${code(fn.qualname)} called with ${code(args)} returned ${code(before)} before the patch and returns ${code(after)} with it (in ${code(bug.primaryTest)}).`;
}

/** The top-level items of a tuple's repr (`(1, 'a, b', (2,))` → `1`, `'a, b'`, `(2,)`); undefined if it is not one. */
export function tupleItems(repr: string): string[] | undefined {
  if (!repr.startsWith("(") || !repr.endsWith(")") || repr.includes("\n")) return undefined;
  const items: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 1;
  for (let i = 1; i < repr.length - 1; i++) {
    const ch = repr[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      items.push(repr.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = repr.slice(start, -1).trim();
  if (last) items.push(last);
  return depth === 0 && !quote ? items : undefined;
}
