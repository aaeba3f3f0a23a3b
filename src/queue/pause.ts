import type { Logger } from "pino";
import { UserError } from "../errors.js";
import { SKIP_LABEL } from "../outbound/quiet.js";
import type { RepoHost } from "../outbound/repo-host.js";
import { refusedCommand } from "./command-access.js";
import type { HypofixJob } from "./job.js";

/**
 * `/hypofix pause` and `/hypofix resume` from a user with write access: the pull request's
 * `hypofix:skip` label is set or cleared, so the state is where a maintainer sees and changes
 * it, and the comment gets 👀. No reply: quiet is the point.
 */
export async function pauseJob(
  host: RepoHost,
  job: HypofixJob,
  log: Logger,
): Promise<Record<string, unknown>> {
  if (job.prNumber === undefined || !job.requestedBy)
    throw new UserError(`a ${job.kind} job needs the pull request and who asked`);
  const refused = await refusedCommand(host, job.prNumber, job.requestedBy, log);
  if (refused) return { status: "refused", reason: refused };
  await host.setLabel(job.prNumber, SKIP_LABEL, job.kind === "pause");
  if (job.commentId !== undefined) {
    await host.reactToComment(job.commentId, "eyes").catch((err: unknown) => {
      log.warn({ err: String(err) }, "could not react to the command");
    });
  }
  return { status: job.kind === "pause" ? "paused" : "resumed", pullRequest: job.prNumber };
}
