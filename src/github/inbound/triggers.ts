import type { HypofixJob } from "../../queue/job.js";

/** Pure mapping from webhook payloads to jobs: what Hypofix reacts to, and why not. */

const FAILED = new Set(["failure", "timed_out"]);

export type Trigger = { job: HypofixJob } | { ignored: string };

interface RepoRef {
  name: string;
  owner: { login: string };
}

interface CheckRunPayload {
  installation?: { id: number } | null;
  repository: RepoRef;
  check_run: {
    id: number;
    head_sha: string;
    conclusion: string | null;
    app?: { id: number } | null;
    check_suite?: { head_branch?: string | null } | null;
    pull_requests: { number: number }[];
  };
}

interface WorkflowRunPayload {
  installation?: { id: number } | null;
  repository: RepoRef;
  workflow_run: {
    id: number;
    head_sha: string;
    head_branch?: string | null;
    conclusion: string | null;
    pull_requests: ({ number: number } | null)[];
  };
}

function repoOf(repository: RepoRef): HypofixJob["repo"] {
  return { owner: repository.owner.login, name: repository.name };
}

interface FailedRun {
  head_sha: string;
  conclusion: string | null;
  pull_requests: ({ number: number } | null)[];
}

/** The job for a failed run, or why there is none. */
function failedRunJob(
  payload: { installation?: { id: number } | null; repository: RepoRef },
  run: FailedRun,
  ids: Pick<HypofixJob, "checkRunId" | "workflowRunId">,
  headBranch: string | null | undefined,
): Trigger {
  if (!run.conclusion || !FAILED.has(run.conclusion)) return { ignored: `conclusion is ${run.conclusion}` };
  if (!payload.installation) return { ignored: "payload has no installation" };
  return {
    job: {
      kind: "ci-failure",
      trigger: "ci",
      installationId: payload.installation.id,
      repo: repoOf(payload.repository),
      headSha: run.head_sha,
      ...ids,
      ...(headBranch ? { headBranch } : {}),
      ...(run.pull_requests[0] ? { prNumber: run.pull_requests[0].number } : {}),
    },
  };
}

/** A completed check run that failed (and is not Hypofix's own) becomes a ci-failure job. */
export function triggerFromCheckRun(payload: CheckRunPayload, ownAppId?: number): Trigger {
  const run = payload.check_run;
  if (ownAppId !== undefined && run.app?.id === ownAppId && run.conclusion && FAILED.has(run.conclusion)) {
    return { ignored: "check run is Hypofix's own" };
  }
  return failedRunJob(payload, run, { checkRunId: run.id }, run.check_suite?.head_branch);
}

/** A completed workflow run that failed becomes a ci-failure job (same id as its check runs'). */
export function triggerFromWorkflowRun(payload: WorkflowRunPayload): Trigger {
  const run = payload.workflow_run;
  return failedRunJob(payload, run, { workflowRunId: run.id }, run.head_branch);
}

export type Command = "explain" | "fix";

/** `/explain` or `/fix` as the first word of a line of a comment. */
export function parseCommand(body: string): Command | null {
  const match = /^[ \t]*\/(explain|fix)\b/m.exec(body);
  return match ? (match[1] as Command) : null;
}

export { canTrigger } from "../outbound/permission.js";
