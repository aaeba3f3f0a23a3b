import type { RepoHost } from "../outbound/repo-host.js";
import { closedNote } from "../report/fix-notes.js";
import type { HypofixJob } from "./job.js";

/**
 * A `ci-green` job: the branch's CI passed, so an open Hypofix pull request for it
 * is no longer needed and is closed with a comment. Closing is idempotent: a
 * re-run finds the pull request closed (or its comment posted) and does nothing more.
 */
export async function greenJob(host: RepoHost, job: HypofixJob): Promise<Record<string, unknown>> {
  if (job.headSha === undefined || job.headBranch === undefined) return { status: "nothing-to-close" };
  const closed = await host.closeFixPullRequest({
    baseBranch: job.headBranch,
    greenSha: job.headSha,
    note: closedNote(job.headBranch, job.headSha),
  });
  return closed ? { status: "closed", pullRequest: closed.number } : { status: "nothing-to-close" };
}
