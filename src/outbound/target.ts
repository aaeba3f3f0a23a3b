import { UserError } from "../errors.js";
import { readCiFailure } from "./ci-log.js";
import type { GitHubClient, RepoRef } from "./publish.js";

/** What a GitHub URL given to the CLI points at. */
export type GitHubTarget = { webHost: string; repo: RepoRef } & (
  { kind: "pull"; number: number } | { kind: "run"; runId: number }
);

const PATH = /^\/([^/]+)\/([^/]+)\/(?:pull\/(\d+)|actions\/runs\/(\d+))(?:\/.*)?$/;

/** A pull request URL (`…/owner/repo/pull/12`) or an Actions run URL (`…/owner/repo/actions/runs/345`), or undefined. */
export function parseGitHubUrl(text: string): GitHubTarget | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const match = PATH.exec(url.pathname);
  if (!match) {
    throw new UserError(
      `not a pull request or Actions run URL: ${text}`,
      "give https://HOST/OWNER/REPO/pull/N or https://HOST/OWNER/REPO/actions/runs/ID",
    );
  }
  const repo = { owner: match[1]!, repo: match[2]! };
  const base = { webHost: url.host, repo };
  return match[3]
    ? { ...base, kind: "pull", number: Number(match[3]) }
    : { ...base, kind: "run", runId: Number(match[4]) };
}

/** The REST API root for a web host: api.github.com for github.com, `/api/v3` on GitHub Enterprise Server. */
export function apiUrlFor(webHost: string): string {
  return webHost === "github.com" ? "https://api.github.com" : `https://${webHost}/api/v3`;
}

/** The failing commit behind a URL, and what its CI log says. */
export interface RemoteFailure {
  headSha: string;
  /** The branch the fix would target when it is published. */
  baseBranch: string;
  prNumber?: number;
  /** The head lives in another repository: never published, set up without network. */
  fork: boolean;
  workflowRunId?: number;
  failingTests: string[];
  /** Those of `failingTests` that name one test: what the run is asked to fix. */
  tests: string[];
  excerpt: string;
}

const FAILED = new Set(["failure", "timed_out"]);

/**
 * Resolves a pull request or Actions run to its head commit and its newest
 * failed run, and reads the failing test ids from that run's job logs.
 */
export async function findRemoteFailure(octokit: GitHubClient, target: GitHubTarget): Promise<RemoteFailure> {
  const { repo } = target;
  const own = `${repo.owner}/${repo.repo}`.toLowerCase();
  let headSha: string;
  let baseBranch: string;
  let prNumber: number | undefined;
  let fork: boolean;
  let runId: number | undefined;
  if (target.kind === "pull") {
    const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: target.number });
    headSha = pr.head.sha;
    prNumber = pr.number;
    fork = pr.head.repo?.full_name.toLowerCase() !== own;
    baseBranch = fork ? pr.base.ref : pr.head.ref;
    const { data } = await octokit.rest.actions.listWorkflowRunsForRepo({
      ...repo,
      head_sha: headSha,
      per_page: 100,
    });
    runId = data.workflow_runs
      .filter((r) => r.conclusion && FAILED.has(r.conclusion))
      .sort((a, b) => b.id - a.id)[0]?.id;
  } else {
    const { data: run } = await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: target.runId });
    headSha = run.head_sha;
    prNumber = run.pull_requests?.[0]?.number;
    fork = (run.head_repository?.full_name ?? own).toLowerCase() !== own;
    baseBranch =
      run.head_branch && !fork
        ? run.head_branch
        : (await octokit.rest.repos.get({ ...repo })).data.default_branch;
    runId = run.id;
  }
  const facts =
    runId === undefined
      ? { failingTests: [], tests: [], excerpt: "" }
      : await readCiFailure(octokit, repo, { workflowRunId: runId });
  return {
    headSha,
    baseBranch,
    fork,
    failingTests: facts.failingTests,
    tests: facts.tests,
    excerpt: facts.excerpt,
    ...(prNumber !== undefined ? { prNumber } : {}),
    ...(runId !== undefined ? { workflowRunId: runId } : {}),
  };
}
