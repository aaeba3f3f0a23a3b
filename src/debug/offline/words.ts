/** The offline engine's steps in words: what a probe saw, what an edit makes of its line, why a test still fails. Pure. */
import type { Observation } from "../../lang/types.js";
import { formatEdit, type Edit } from "../../lang/experiment.js";
import { clip, codeSpan as code } from "../../text.js";

const LOOP_PREFIX = "At each loop execution, the expression was: ";

/** The probe's observation in words, for the hypotheses of its line. */
export function describeValues(probe: string, observation: string): string {
  if (observation.startsWith(LOOP_PREFIX)) {
    return `In the failing test, ${code(probe)} took the values ${code(clip(observation.slice(LOOP_PREFIX.length), 120))} as this line ran.`;
  }
  return `In the failing test, ${code(probe)} was ${code(clip(observation, 120))} at this line.`;
}

/** The edited line in words, for a prediction: the line as a REPLACE or DEL leaves it, or the statement an ADD inserts. */
export function describeEdit(text: string, edits: Edit[], line: number): string {
  const single = edits.length === 1 ? edits[0]! : undefined;
  if (single?.op === "ADD") return `${code(single.stmt.trim())} inserted above line ${single.line}`;
  let edited = text;
  for (const e of edits) {
    if (e.line !== line || e.op === "ADD") return edits.map((x) => code(formatEdit(x))).join(" and ");
    edited = edited.split(e.old).join(e.op === "REPLACE" ? e.new : "");
  }
  return `line ${line} as ${code(edited.trim())}`;
}

export function describeMiss(obs: Observation, failureText: string): string {
  if (obs.kind === "invalid") return `the experiment could not run: ${clip(obs.observation, 160)}`;
  const first = obs.observation.trim().split("\n")[0] ?? "";
  if (first.startsWith(failureText.split("\n")[0] ?? "\u0000"))
    return "the failing test still fails the same way";
  return `the failing test still fails, now with ${clip(first, 160)}: this line matters, but this edit is not the fix`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A candidate's claim as the sentence a step states. */
export function claimOf(candidate: { claim: string }): string {
  return `${capitalize(candidate.claim)}.`;
}
