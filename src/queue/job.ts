import { createHash } from "node:crypto";
import { z } from "zod";

/** A unit of work for the worker; validated with zod when enqueued and again when taken. */
export const jobSchema = z.object({
  kind: z.enum(["ci-failure", "explain"]),
  installationId: z.number().int().positive(),
  repo: z.object({ owner: z.string().min(1), name: z.string().min(1) }),
  headSha: z.string().regex(/^[0-9a-f]{40}$/, "must be a full 40-hex commit sha"),
  /** Branch the failing commit is on, when the event says; a fix PR targets it. */
  headBranch: z.string().min(1).optional(),
  prNumber: z.number().int().positive().optional(),
  checkRunId: z.number().int().positive().optional(),
  workflowRunId: z.number().int().positive().optional(),
  requestedBy: z.string().min(1).optional(),
  /** Failing test ids when the CI log named them. */
  tests: z.array(z.string().min(1)).optional(),
});

export type HypofixJob = z.infer<typeof jobSchema>;

/**
 * The BullMQ job id: a stable hash of kind + repo + sha (+ tests, + PR for explain),
 * so a redelivered webhook, or a check_run and a workflow_run for the same
 * failure, never start a second run.
 */
export function jobIdFor(job: HypofixJob): string {
  const parts = [job.kind, `${job.repo.owner}/${job.repo.name}`.toLowerCase(), job.headSha];
  if (job.kind === "explain" && job.prNumber !== undefined) parts.push(`pr${job.prNumber}`);
  if (job.tests && job.tests.length > 0) parts.push([...job.tests].sort().join(","));
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);
}
