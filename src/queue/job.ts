import { createHash } from "node:crypto";
import { z } from "zod";

/** A unit of work for the worker; validated with zod when enqueued and again when taken. */
const repoRef = z.object({ owner: z.string().min(1), name: z.string().min(1) });

export const jobSchema = z
  .object({
    /** `ci-green`: a branch's CI passed; an open Hypofix PR for it is closed with a comment. */
    /** `pause` / `resume`: `/hypofix pause` or `resume` on a pull request (its `hypofix:skip` label). */
    kind: z.enum(["ci-failure", "explain", "ci-green", "pause", "resume"]),
    installationId: z.number().int().positive(),
    repo: repoRef,
    /** Absent for a command: the worker runs the pull request's head as it was when the comment was written. */
    headSha: z
      .string()
      .regex(/^[0-9a-f]{40}$/, "must be a full 40-hex commit sha")
      .optional(),
    /** Branch the failing commit is on, when the event says; a fix PR targets it. */
    headBranch: z.string().min(1).optional(),
    prNumber: z.number().int().positive().optional(),
    checkRunId: z.number().int().positive().optional(),
    workflowRunId: z.number().int().positive().optional(),
    requestedBy: z.string().min(1).optional(),
    /** A `/fix <text>` command's text: the maintainer's constraint on the fix. */
    instructions: z.string().min(1).max(2000).optional(),
    /** Failing test ids when the CI log named them. */
    tests: z.array(z.string().min(1)).optional(),
    /** What started the job: a CI event, or a `/fix` or `/explain` command (a new run every time). */
    trigger: z.enum(["ci", "command"]).default("ci"),
    /** The webhook delivery (X-GitHub-Delivery) the job came from. */
    deliveryId: z.string().min(1).optional(),
    /** For a command: the comment, and when it was written (the head the commenter saw). */
    commentId: z.number().int().positive().optional(),
    commentedAt: z.string().datetime({ offset: true }).optional(),
    /** A review requesting changes on a Hypofix pull request: a command like `/fix <text>`, its body the text. */
    reviewId: z.number().int().positive().optional(),
    /** The head commit's repository when the event names it; not `repo` for a fork. Absent proves nothing: the worker asks GitHub. */
    headRepo: repoRef.optional(),
  })
  .refine((job) => job.headSha !== undefined || (job.trigger === "command" && job.prNumber !== undefined), {
    message: "a CI job needs headSha; a command needs prNumber",
    path: ["headSha"],
  });

export type HypofixJob = z.infer<typeof jobSchema>;

/**
 * An event's identity, BullMQ's deduplication id: a stable hash of kind + repo + sha
 * (+ tests, + PR for explain, + the comment or review for a command), so a redelivered webhook,
 * or a check_run and a workflow_run for the same failure, never start a second run,
 * while each `/fix` or `/explain` comment does.
 */
export function jobIdFor(job: HypofixJob): string {
  const parts = [job.kind, `${job.repo.owner}/${job.repo.name}`.toLowerCase(), job.headSha ?? ""];
  if (job.commentId !== undefined) parts.push(`comment${job.commentId}`);
  if (job.reviewId !== undefined) parts.push(`review${job.reviewId}`);
  if (job.kind === "explain" && job.prNumber !== undefined) parts.push(`pr${job.prNumber}`);
  if (job.tests && job.tests.length > 0) parts.push([...job.tests].sort().join(","));
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);
}
