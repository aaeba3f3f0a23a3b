import { formatEdit, formatEditExperiment, NO_EXCEPTION, type Edit } from "../../lang/experiment.js";
import { clip, codeSpan as code } from "../../text.js";
import { attempt } from "./attempt.js";
import type { OfflineRun, Tried } from "./state.js";
import { capitalize, claimOf } from "./words.js";

/** Copies of an edit that moved the failure tried together with it, per edit and in all. */
const MAX_TWINS = 2;
const MAX_TWIN_PAIRS = 6;
/** Characters on each side of a replaced text that a copy of its line must repeat. */
const COPY_CONTEXT = 8;

/**
 * The twins strategy: an edit that moved the failure, together with the same replacement
 * where the same code is copied (another method doing the same call), each pair of places
 * once. Whether a pair validated.
 */
export async function tryTwins(run: OfflineRun, changer: Tried): Promise<boolean> {
  const { bug, budget, twinned } = run;
  const { item, outcome } = changer;
  const { candidate } = item;
  const claim = claimOf(candidate);
  const source = await bug.readSource(candidate.file);
  const twins: { key: string; edits: Edit[]; claim: string }[] = [];
  for (const edit of candidate.edits.length === 1 ? copiesOf(source, candidate.edits[0]!) : []) {
    const at = `${candidate.file}:${edit.line}`;
    if (twins.some((t) => t.key === at)) continue;
    twins.push({
      key: at,
      edits: [edit],
      claim: `the same slip is copied at line ${edit.line}: ${formatEdit(edit)}`,
    });
  }
  for (const twin of twins.slice(0, MAX_TWINS)) {
    const key = [`${candidate.file}:${candidate.line}`, twin.key].sort().join(" ");
    if (twinned.size >= MAX_TWIN_PAIRS || budget.exhausted() || twinned.has(key)) continue;
    twinned.add(key);
    const edits = [...candidate.edits, ...twin.edits];
    const pair = await attempt(
      run,
      {
        hypothesis: `The same slip is made twice: ${candidate.claim}; and ${twin.claim}. The first edit alone changed the failure: the test ended with ${code(clip(outcome, 100))}.`,
        claim: `${claim} ${capitalize(twin.claim)}.`,
        prediction: `With both edits, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}).`,
        experiment: formatEditExperiment(edits),
      },
      edits,
      candidate.file,
      bug.primaryTest,
      item,
    );
    if (pair.validation?.plausible) return true;
  }
  return false;
}

/**
 * The same replacement on the other lines of the file that hold the replaced text with the same
 * few characters around it (`_window(route, rate)` in two methods): where a copied slip sits.
 */
export function copiesOf(source: string, edit: Edit): Edit[] {
  if (edit.op !== "REPLACE") return [];
  const lines = source.split("\n");
  const text = lines[edit.line - 1] ?? "";
  const at = text.indexOf(edit.old);
  if (at < 0) return [];
  const before = text.slice(Math.max(0, at - COPY_CONTEXT), at);
  const after = text.slice(at + edit.old.length, at + edit.old.length + COPY_CONTEXT);
  const needle = before + edit.old + after;
  // Too little context would match unrelated lines.
  if (needle.trim().length < edit.old.length + COPY_CONTEXT) return [];
  const out: Edit[] = [];
  lines.forEach((other, i) => {
    if (i === edit.line - 1 || !other.includes(needle)) return;
    out.push({ ...edit, line: i + 1, old: needle, new: before + edit.new + after });
  });
  return out;
}
