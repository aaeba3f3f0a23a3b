import { Lexer } from "marked";
import type { HypofixJob } from "../queue/job.js";

/** Pure mapping from webhook payloads to jobs: what Hypofix reacts to, and why not. */

const FAILED = new Set(["failure", "timed_out"]);

/** Branches Hypofix itself pushes: a failure there is an iteration of that fix pull request, never a fix of a fix. */
export const OWN_BRANCH_PREFIX = "hypofix/";

export type Trigger = { job: HypofixJob } | { ignored: string };

/** A repository as payloads carry it (`owner` may be null in the schema; `full_name` never is). */
interface RepoRef {
  name: string;
  full_name: string;
}

/** A pull request as check runs and workflow runs list it (its repos carry an API url, no owner). */
interface RunPullRequest {
  number: number;
  head?: { repo?: { url: string } | null } | null;
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
    pull_requests: RunPullRequest[];
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
    head_repository?: RepoRef | null;
    pull_requests: (RunPullRequest | null)[];
  };
}

type Repo = HypofixJob["repo"];

function repoOf(repository: RepoRef): Repo {
  return { owner: repository.full_name.slice(0, repository.full_name.indexOf("/")), name: repository.name };
}

function sameRepo(a: Repo, b: Repo): boolean {
  return a.owner.toLowerCase() === b.owner.toLowerCase() && a.name.toLowerCase() === b.name.toLowerCase();
}

/** `https://api.github.com/repos/OWNER/NAME` (or a GHES `/api/v3/repos/...` url) as a repo reference. */
function repoFromApiUrl(url: string): Repo | undefined {
  const match = /\/repos\/([^/]+)\/([^/]+)\/?$/.exec(url);
  return match ? { owner: decodeURIComponent(match[1]!), name: decodeURIComponent(match[2]!) } : undefined;
}

interface RunFacts {
  payload: { installation?: { id: number } | null; repository: RepoRef };
  headSha: string;
  conclusion: string | null;
  ids: Pick<HypofixJob, "checkRunId" | "workflowRunId">;
  headBranch: string | null | undefined;
  /** The head commit's repository when the event says (a fork's for a fork pull request). */
  headRepo: Repo | undefined;
  prNumber: number | undefined;
}

/** The job for a completed run: a fix for a failure, a `ci-green` note for a success; or why there is none. */
function runJob(run: RunFacts): Trigger {
  const { payload, conclusion, headBranch, headRepo } = run;
  if (!payload.installation) return { ignored: "payload has no installation" };
  const repo = repoOf(payload.repository);
  // Our own branch: a failure is the job of iterating on its pull request (the worker checks it is ours).
  const own = headBranch?.startsWith(OWN_BRANCH_PREFIX) && (!headRepo || sameRepo(headRepo, repo));
  if (headBranch?.startsWith(OWN_BRANCH_PREFIX) && (!own || conclusion === "success"))
    return { ignored: `branch ${headBranch} is Hypofix's own` };
  const common = {
    trigger: "ci" as const,
    installationId: payload.installation.id,
    repo,
    headSha: run.headSha,
    ...(headRepo ? { headRepo } : {}),
  };
  if (conclusion === "success") {
    // A fork's branch name says nothing about this repository's branch of the same name.
    if (!headBranch || !headRepo || !sameRepo(headRepo, repo))
      return { ignored: "success on a head that is not a branch of this repository" };
    return { job: { ...common, kind: "ci-green", headBranch } };
  }
  if (!conclusion || !FAILED.has(conclusion)) return { ignored: `conclusion is ${conclusion}` };
  return {
    job: {
      ...common,
      kind: "ci-failure",
      ...run.ids,
      ...(headBranch ? { headBranch } : {}),
      ...(run.prNumber !== undefined ? { prNumber: run.prNumber } : {}),
    },
  };
}

/**
 * A completed check run (not Hypofix's own): a failure becomes a ci-failure job,
 * a success on a same-repository pull request's branch a ci-green job.
 */
export function triggerFromCheckRun(payload: CheckRunPayload, ownAppId?: number): Trigger {
  const run = payload.check_run;
  if (ownAppId !== undefined && run.app?.id === ownAppId) return { ignored: "check run is Hypofix's own" };
  const pr = run.pull_requests[0];
  const headRepoUrl = pr?.head?.repo?.url;
  return runJob({
    payload,
    headSha: run.head_sha,
    conclusion: run.conclusion,
    ids: { checkRunId: run.id },
    headBranch: run.check_suite?.head_branch,
    headRepo: headRepoUrl ? repoFromApiUrl(headRepoUrl) : undefined,
    prNumber: pr?.number,
  });
}

/** A completed workflow run: same jobs as a check run (same job identity as its check runs'). */
export function triggerFromWorkflowRun(payload: WorkflowRunPayload): Trigger {
  const run = payload.workflow_run;
  const pr = run.pull_requests.find((p) => p !== null);
  return runJob({
    payload,
    headSha: run.head_sha,
    conclusion: run.conclusion,
    ids: { workflowRunId: run.id },
    headBranch: run.head_branch,
    headRepo: run.head_repository ? repoOf(run.head_repository) : undefined,
    prNumber: pr?.number,
  });
}

interface ReviewPayload {
  installation?: { id: number } | null;
  repository: RepoRef;
  review: {
    id: number;
    state: string;
    body: string | null;
    submitted_at: string | null;
    user: { login: string; type?: string } | null;
  };
  pull_request: { number: number; head: { ref: string; repo: { full_name: string } | null } };
}

/**
 * A review requesting changes on a pull request from one of Hypofix's branches: a command, as
 * `/fix <text>` is, its body the maintainer's constraint. Who may steer, and whether the pull
 * request is really Hypofix's, are the job's to check.
 */
export function triggerFromReview(payload: ReviewPayload): Trigger {
  const { review, pull_request: pr } = payload;
  if (review.state.toLowerCase() !== "changes_requested") return { ignored: `review is ${review.state}` };
  if (!review.user || review.user.type === "Bot") return { ignored: "review by a bot" };
  const own =
    pr.head.ref.startsWith(OWN_BRANCH_PREFIX) &&
    pr.head.repo?.full_name.toLowerCase() === payload.repository.full_name.toLowerCase();
  if (!own) return { ignored: "not a pull request from Hypofix's branches" };
  if (!payload.installation) return { ignored: "payload has no installation" };
  const text = review.body?.trim().slice(0, 2000);
  return {
    job: {
      kind: "ci-failure",
      trigger: "command",
      installationId: payload.installation.id,
      repo: repoOf(payload.repository),
      prNumber: pr.number,
      requestedBy: review.user.login,
      reviewId: review.id,
      ...(review.submitted_at ? { commentedAt: review.submitted_at } : {}),
      ...(text ? { instructions: text } : {}),
    },
  };
}

export type Command = "explain" | "fix" | "pause" | "resume";

/**
 * `/explain`, `/fix`, `/hypofix pause` or `/hypofix resume` alone on a line of a top-level
 * paragraph. Code blocks, quotes, lists, HTML and inline code never trigger: parsed with
 * marked's lexer, as GitHub renders it.
 */
export function parseCommand(body: string): Command | null {
  return findCommand(body)?.command ?? null;
}

/**
 * The command of a comment (as parseCommand finds it) and, for `/fix <text>`, the text after
 * it on its line: the maintainer's constraint on the fix, capped at 2000 characters.
 */
export function findCommand(body: string): { command: Command; text?: string } | undefined {
  for (const token of new Lexer().lex(body)) {
    if (token.type !== "paragraph") continue;
    for (const line of token.raw.split("\n")) {
      const match = /^[ \t]*\/(?:(explain)|(fix)(?:[ \t]+(\S.*?))?|hypofix[ \t]+(pause|resume))[ \t]*$/.exec(
        line,
      );
      if (!match) continue;
      const command = (match[1] ?? match[2] ?? match[4]) as Command;
      return match[3] ? { command, text: match[3].slice(0, 2000) } : { command };
    }
  }
  return undefined;
}

/** A commit that replaces a branch's or pull request's head: jobs for any other sha there are stale. */
export interface HeadMoved {
  repo: Repo;
  /** The branch of this repository that moved (push), or the pull request whose head moved (synchronize). */
  branch?: string;
  prNumber?: number;
  /** The new head; undefined when the branch was deleted. */
  headSha?: string;
}

const ZERO_SHA = /^0{40}$/;

/** A push to a branch: the branch's head moved on (or the branch is gone). Tags are not heads. */
export function headMovedByPush(payload: {
  ref: string;
  after: string;
  deleted?: boolean;
  repository: RepoRef;
}): HeadMoved | undefined {
  if (!payload.ref.startsWith("refs/heads/")) return undefined;
  const gone = payload.deleted === true || ZERO_SHA.test(payload.after);
  return {
    repo: repoOf(payload.repository),
    branch: payload.ref.slice("refs/heads/".length),
    ...(gone ? {} : { headSha: payload.after }),
  };
}

/** A pull request's head moved on (`pull_request.synchronize`). */
export function headMovedBySynchronize(payload: {
  number: number;
  pull_request: { head: { sha: string } };
  repository: RepoRef;
}): HeadMoved {
  return {
    repo: repoOf(payload.repository),
    prNumber: payload.number,
    headSha: payload.pull_request.head.sha,
  };
}

/** Whether a job is for an older head of what moved: same repository, same branch or pull request, other sha. */
export function isStale(job: HypofixJob, moved: HeadMoved): boolean {
  if (!sameRepo(job.repo, moved.repo) || job.headSha === undefined || job.headSha === moved.headSha)
    return false;
  const onBranch =
    moved.branch !== undefined &&
    job.headBranch === moved.branch &&
    (job.headRepo === undefined || sameRepo(job.headRepo, job.repo));
  const onPr = moved.prNumber !== undefined && job.prNumber === moved.prNumber;
  return onBranch || onPr;
}
