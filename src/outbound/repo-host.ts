import { Octokit } from "@octokit/rest";
import { checkoutCommit, type Checkout } from "./checkout.js";
import {
  concludeCheckRun,
  createCheckRun,
  findCheckRun,
  updateCheckRun,
  type CheckRunConclusion,
  type CheckRunOutput,
  type FoundCheckRun,
} from "./check-run.js";
import type { CiLogFacts, Language } from "../lang/types.js";
import { readCiFailure } from "./ci-log.js";
import { readRepoConfig, type ConfigLookup } from "./config.js";
import { headOwner, type HeadOwner } from "./head-owner.js";
import { fixChain, publishIteration, type FixChain, type Iteration } from "./iterations.js";
import { permissionOf } from "./permission.js";
import { openFixBranches, setLabel } from "./quiet.js";
import { openPullRequestForHead, postReview, pullRequestFiles, type Review } from "./reviews.js";
import type { PullRequestFile } from "./suggestions.js";
import {
  closeFixPullRequest,
  comment,
  publishFix,
  publishedFix,
  reportCheckRun,
  upsertComment,
  type BlockedFix,
  type CheckOutcome,
  type CommentIds,
  type FixPullRequest,
  type GitHubClient,
  type PublishedFix,
  type RepoRef,
} from "./publish.js";

/** What a job needs to know of a pull request. */
export interface PullRequestInfo {
  number: number;
  title: string;
  body: string;
  headSha: string;
  baseSha: string;
  /** The head branch, when it lives in this repository (not a fork). */
  sameRepoHeadRef?: string;
  baseRef: string;
  /** Open (not closed or merged): only an open pull request's head proves a commit is this repository's. */
  open: boolean;
  /** Its labels' names (`hypofix:skip` pauses Hypofix on it). */
  labels: string[];
}

/**
 * Everything a job does on GitHub, for one repository through one installation.
 * The worker receives it through its dependencies; the real one wraps an
 * installation's Octokit and a read-only token that only ever reaches git.
 */
export interface RepoHost {
  readonly repo: RepoRef;
  repository(): Promise<{ cloneUrl: string; defaultBranch: string }>;
  pullRequest(number: number): Promise<PullRequestInfo>;
  /** Whether GitHub shows the commit as this repository's own (a branch's tip, an open same-repository PR's head). */
  headOwner(sha: string, branch?: string): Promise<HeadOwner>;
  /**
   * Failing test ids and the failure excerpt from the failed Actions jobs of a run, read by
   * the repository's language when it is known (else by the registry's languages in turn).
   */
  ciFailure(ids: { checkRunId?: number; workflowRunId?: number }, language?: Language): Promise<CiLogFacts>;
  checkout(sha: string, options?: { alsoFetch?: string[] }): Promise<Checkout>;
  /** Opens or updates the one fix pull request of the failing branch; idempotent (see publish.ts). */
  publishFix(fix: FixPullRequest): Promise<PublishedFix | BlockedFix>;
  /** Our open pull request already holding a fix for `baseSha`, untouched since; see publish.ts. */
  publishedFix(baseBranch: string, baseSha: string): Promise<{ number: number; url: string } | undefined>;
  /** Our fix pull request from `branch` at `headSha`, with its automatic iterations counted (up to `countUpTo` + 1); see iterations.ts. */
  fixChain(branch: string, headSha: string, countUpTo: number): Promise<FixChain | { notOurs: string }>;
  /** Pushes one iteration on top of a fix chain's head, by fast-forward; see iterations.ts. */
  publishIteration(iteration: Iteration): Promise<PublishedFix | BlockedFix>;
  /** The open pull request whose head is `sha` (a fork's check run names none). */
  openPullRequestForHead(sha: string): Promise<number | undefined>;
  /** Adds or removes a label of a pull request. */
  setLabel(issueNumber: number, label: string, on: boolean): Promise<void>;
  /** The head branches of the open fix pull requests (counted against `max_open_pull_requests`). */
  openFixBranches(): Promise<string[]>;
  /** The pull request's changed files and their hunks. */
  pullRequestFiles(number: number): Promise<PullRequestFile[]>;
  /** Posts a review (suggested changes) once per key; see reviews.ts. */
  postReview(
    number: number,
    review: Review,
    key: string,
  ): Promise<{ url: string; action: "posted" | "unchanged" }>;
  /** With a key, posted once: a re-run finds its earlier comment instead of posting again. */
  comment(issueNumber: number, body: string, key?: string): Promise<{ url: string }>;
  /** Closes the failing branch's open fix pull request, with a comment, when CI passed without it. */
  closeFixPullRequest(options: {
    baseBranch: string;
    greenSha: string;
    note: string;
  }): Promise<{ number: number; url: string } | undefined>;
  reportCheckRun(headSha: string, outcome: CheckOutcome): Promise<void>;
  /** Ends the job's use of GitHub: the token git was given is revoked. */
  dispose(): Promise<void>;

  // The job's own check run, its configuration, and what a command job checks first.
  /** Starts the job's check run (`in_progress`) and returns its id. */
  createCheckRun(headSha: string, externalId: string, first: CheckRunOutput): Promise<number>;
  updateCheckRun(id: number, progress: CheckRunOutput): Promise<void>;
  concludeCheckRun(id: number, end: CheckRunConclusion): Promise<void>;
  findCheckRun(headSha: string, externalId: string): Promise<FoundCheckRun | undefined>;
  /** `.github/hypofix.yml` from the default branch (org `.github` fallback, `_extends`), validated. */
  repoConfig(): Promise<ConfigLookup>;
  /** The user's permission level on the repository. */
  permission(username: string): Promise<string>;
  reactToComment(commentId: number, content: "eyes"): Promise<void>;
  /** When a commit was committed (its committer date). */
  committedAt(sha: string): Promise<string>;
}

/**
 * `appId`: the App's id, which tells Hypofix's comments from other bots' (see ownComment);
 * `commentIds`: where keyed comments' ids are remembered (see upsertComment).
 */
export function createRepoHost(
  octokit: GitHubClient,
  token: string,
  repo: RepoRef,
  appId?: number,
  commentIds?: CommentIds,
): RepoHost {
  let meta: Promise<{ cloneUrl: string; defaultBranch: string }> | undefined;
  const repository = () =>
    (meta ??= octokit.rest.repos
      .get({ ...repo })
      .then(({ data }) => ({ cloneUrl: data.clone_url, defaultBranch: data.default_branch })));
  return {
    repo,
    repository,
    async pullRequest(number) {
      const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
      const sameRepo = pr.head.repo?.full_name === `${repo.owner}/${repo.repo}`;
      return {
        number: pr.number,
        title: pr.title,
        body: pr.body ?? "",
        headSha: pr.head.sha,
        baseSha: pr.base.sha,
        baseRef: pr.base.ref,
        open: pr.state === "open",
        // A response without the list (not GitHub's, but a proxy's or an old server's) has none.
        labels: Array.isArray(pr.labels) ? pr.labels.map((l) => l.name) : [],
        ...(sameRepo ? { sameRepoHeadRef: pr.head.ref } : {}),
      };
    },
    headOwner: (sha, branch) => headOwner(octokit, repo, sha, branch),
    ciFailure: (ids, language) => readCiFailure(octokit, repo, ids, language),
    async checkout(sha, options = {}) {
      const { cloneUrl } = await repository();
      return checkoutCommit({
        cloneUrl,
        sha,
        token,
        ...(options.alsoFetch ? { alsoFetch: options.alsoFetch } : {}),
      });
    },
    publishFix: (fix) => publishFix(octokit, repo, fix),
    publishedFix: (baseBranch, baseSha) => publishedFix(octokit, repo, baseBranch, baseSha),
    fixChain: (branch, headSha, countUpTo) => fixChain(octokit, repo, branch, headSha, countUpTo),
    publishIteration: (iteration) => publishIteration(octokit, repo, iteration),
    openPullRequestForHead: (sha) => openPullRequestForHead(octokit, repo, sha),
    setLabel: (issueNumber, label, on) => setLabel(octokit, repo, issueNumber, label, on),
    openFixBranches: () => openFixBranches(octokit, repo),
    pullRequestFiles: (number) => pullRequestFiles(octokit, repo, number),
    postReview: (number, review, key) => postReview(octokit, repo, number, review, key),
    comment: (issueNumber, body, key) =>
      key === undefined
        ? comment(octokit, repo, issueNumber, body)
        : upsertComment(octokit, repo, issueNumber, key, body, appId, commentIds),
    closeFixPullRequest: (options) => closeFixPullRequest(octokit, repo, options, appId),
    reportCheckRun: (headSha, outcome) => reportCheckRun(octokit, repo, headSha, outcome),
    async dispose() {
      // The token authenticates its own revocation; an installation token would otherwise live an hour.
      const self = new Octokit({ auth: token, baseUrl: octokit.request.endpoint.DEFAULTS.baseUrl });
      await self.rest.apps.revokeInstallationAccessToken();
    },

    createCheckRun: (headSha, externalId, first) => createCheckRun(octokit, repo, headSha, externalId, first),
    updateCheckRun: (id, progress) => updateCheckRun(octokit, repo, id, progress),
    concludeCheckRun: (id, end) => concludeCheckRun(octokit, repo, id, end),
    findCheckRun: (headSha, externalId) => findCheckRun(octokit, repo, headSha, externalId),
    repoConfig: () => readRepoConfig(octokit, repo),
    permission: (username) => permissionOf(octokit, repo, username),
    async reactToComment(commentId, content) {
      await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content });
    },
    async committedAt(sha) {
      const { data } = await octokit.rest.git.getCommit({ ...repo, commit_sha: sha });
      return data.committer.date;
    },
  };
}
