import { code } from "./inert.js";

/*
 * The short comments around a fix pull request. Branch names are repository text:
 * they go out only as code spans.
 */

/** On the failing pull request: where the validated fix is. */
export function proposedNote(pullRequest: number): string {
  return `Hypofix proposes a validated fix: #${pullRequest}`;
}

/** On our fix pull request, as it is closed: the branch passed without it. */
export function closedNote(branch: string, greenSha: string): string {
  return (
    `CI on ${code(branch)} passed at ${greenSha.slice(0, 12)} without this fix, so Hypofix closes it. ` +
    "Reopen it if the fix is still wanted."
  );
}

/** On our fix pull request, when its branch has commits Hypofix did not make: the new fix is described, not pushed. */
export function blockedNote(branch: string, report: string): string {
  return (
    `Hypofix found a new validated fix but did not push it: ${code(branch)} has commits Hypofix did not make, ` +
    `and it never overwrites them.\n\n${report}`
  );
}
