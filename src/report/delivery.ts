import { suggestionBlock, text } from "./inert.js";

/*
 * What Hypofix posts when it delivers a validated fix where the maintainer is: a
 * review's body and its suggested changes, and the comment on a fork's pull request.
 * The first screen and the report come from render.ts (already inert); the suggestion
 * lines are the patch's code, fenced by inert.ts.
 */

/** A review's body: the report's first screen, and where the rest is. */
export function reviewBody(firstScreen: string): string {
  return [
    firstScreen.trimEnd(),
    "",
    "Each suggested change below is a hunk of the validated patch; **Commit suggestion** (or **Add suggestion to batch** for all of them) applies it. The full report, with the debugging log and the audit, is in the **Hypofix** check run of this commit.",
  ].join("\n");
}

/** One suggested change's comment body, or undefined when its lines cannot be posted verbatim. */
export function suggestionComment(replacement: string[]): string | undefined {
  return suggestionBlock(replacement);
}

/**
 * The comment on a fork's pull request: how to take the fix, then the report (whose `diff`
 * block `git apply` takes); `why` (plain text) says why it is no review.
 */
export function forkFixComment(report: string, why: string): string {
  return [
    `This pull request's head lives in a fork, so Hypofix pushes no branch and opens no pull request; no suggested changes either, since ${text(why)}. To take the fix, save the \`diff\` block below as \`fix.diff\` at the root of your checkout and run \`git apply fix.diff\`.`,
    "",
    report,
  ].join("\n");
}
