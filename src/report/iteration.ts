import { code, mention, text } from "./inert.js";

/*
 * What a fix pull request's next iteration says about itself: why it ran and what it
 * changed since the previous one, above the new report; and why Hypofix stops iterating.
 * Test ids, logins and the maintainer's words are untrusted: inert.ts quotes them.
 */

/** Why an iteration ran: the previous head's CI failed, or a maintainer asked for changes. */
export type IterationCause =
  | { kind: "ci"; failingTests: string[]; iteration: number; max: number }
  | { kind: "steered"; by: string; how: "review" | "command"; text?: string };

/** The note above an iteration's report (the pull request's new body, or its comment). */
export function iterationNote(cause: IterationCause, previous: string, base: string): string {
  const prev = previous.slice(0, 12);
  if (cause.kind === "ci") {
    const tests =
      cause.failingTests.length === 0
        ? "its CI failed"
        : `its CI failed: ${cause.failingTests
            .slice(0, 10)
            .map((t) => code(t))
            .join(", ")}`;
    return [
      `**Iteration** (automatic ${cause.iteration} of at most ${cause.max}, \`max_ci_iterations\`): the previous iteration, ${prev}, did not pass CI; ${tests}.`,
      `**What changed**: this iteration starts from ${prev} and adds the patch below on top of it, to fix that failure; the earlier change stays.`,
    ].join("\n\n");
  }
  const asked =
    cause.how === "review" ? "requested changes in a review" : `asked for a new fix with \`/fix\``;
  const words = cause.text ? `: ${text(cause.text)}` : "";
  return [
    `**Iteration** (asked by ${mention(cause.by)}): ${mention(cause.by)} ${asked}${words}`,
    `**What changed**: this iteration starts again from the failing commit ${base.slice(0, 12)}, with the maintainer's words as its constraint, and its patch below replaces the one of ${prev}; the commit's diff against ${prev} shows the difference.`,
  ].join("\n\n");
}

/** An iteration's note above its report, as the pull request body or comment carries it. */
export function iterationReport(note: string, report: string): string {
  return `${note}\n\n---\n\n${report}`;
}

/** On the fix pull request, when its CI failed and the automatic iterations are spent. */
export function iterationStopNote(head: string, iterations: number, max: number): string {
  const ran =
    max === 0 ? "automatic iterations are off here" : `${iterations} automatic iteration(s) already ran`;
  return (
    `CI failed on ${head.slice(0, 12)}, and Hypofix stops here: ${ran} (\`max_ci_iterations: ${max}\`). ` +
    "A maintainer can steer the next one: request changes in a review, or comment `/fix <what to do>`."
  );
}
