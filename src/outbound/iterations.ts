import type { FileChange } from "./patched-files.js";
import {
  branchHead,
  createFixCommit,
  fitBody,
  oneLine,
  openPullFrom,
  ours,
  prMark,
  readCommit,
  trailerOf,
  type BlockedFix,
  type GitHubClient,
  type PublishedFix,
  type RepoRef,
} from "./publish.js";

/*
 * Iterations of a fix pull request Hypofix opened: a commit on top of its branch's head,
 * made when that head's CI failed (`ci`) or a maintainer asked for changes (`steered`).
 * How many automatic iterations ran is read from the branch's commits, never from text
 * anyone can post: each iteration commit names its kind in a trailer, and the branch
 * holds only commits Hypofix made (it is moved only from its own commit, by fast-forward).
 */

export type IterationKind = "ci" | "steered";

const ITERATION = "Hypofix-Iteration";
const iterationOf = (message: string): IterationKind | undefined => {
  const kind = new RegExp(`^${ITERATION}: (ci|steered)$`, "m").exec(message)?.[1];
  return kind as IterationKind | undefined;
};

/** A fix pull request of ours whose head is the commit a job is about. */
export interface FixChain {
  pullRequest: { number: number; url: string };
  branch: string;
  /** The failing commit of the base branch the chain fixes (its commits' `Hypofix-Fixes`). */
  base: string;
  /** Automatic iterations in a row at the head (since the first fix or a maintainer's request). */
  ciIterations: number;
}

/**
 * The fix chain of `branch` at `headSha`, or why there is none of ours: no open pull request
 * from the branch, one a person opened, a branch that moved on, or a head Hypofix did not make.
 * Counting stops past `countUpTo`, so the walk reads at most that many commits more.
 */
export async function fixChain(
  octokit: GitHubClient,
  repo: RepoRef,
  branch: string,
  headSha: string,
  countUpTo: number,
): Promise<FixChain | { notOurs: string }> {
  const [pr, head] = await Promise.all([
    openPullFrom(octokit, repo, branch),
    branchHead(octokit, repo, branch),
  ]);
  if (!pr) return { notOurs: `no open pull request from ${branch}` };
  if (!pr.byBot) return { notOurs: `pull request #${pr.number} was not opened by Hypofix` };
  if (head !== headSha) return { notOurs: `${branch} moved on past ${headSha.slice(0, 12)}` };
  let commit = await readCommit(octokit, repo, headSha);
  const base = trailerOf(commit.message);
  if (!ours(commit, pr) || base === undefined)
    return { notOurs: `${branch} holds ${headSha.slice(0, 12)}, a commit Hypofix did not make` };
  let ciIterations = 0;
  while (iterationOf(commit.message) === "ci" && ciIterations <= countUpTo) {
    ciIterations++;
    const parent = commit.parents[0];
    if (parent === undefined) break;
    commit = await readCommit(octokit, repo, parent);
    if (trailerOf(commit.message) !== base) break;
  }
  return { pullRequest: { number: pr.number, url: pr.url }, branch, base, ciIterations };
}

export interface Iteration {
  chain: FixChain;
  /** The head the iteration builds on (the failing commit of the job). */
  parent: string;
  kind: IterationKind;
  /** The root tree of the commit the patch applies to (the head, or for a steered run the base). */
  baseTree: string;
  files: FileChange[];
  title: string;
  body: string;
}

/**
 * Pushes an iteration: one commit whose only parent is the head it builds on, moved there by
 * fast-forward (GitHub refuses the move if anyone pushed meanwhile), and the pull request's
 * body becomes the new report. A branch that moved on is left as it is.
 */
export async function publishIteration(
  octokit: GitHubClient,
  repo: RepoRef,
  it: Iteration,
): Promise<PublishedFix | BlockedFix> {
  const { branch, base, pullRequest } = it.chain;
  const blocked = (why: string): BlockedFix => ({ action: "blocked", branch, reason: why, pullRequest });
  const head = await branchHead(octokit, repo, branch);
  if (head !== it.parent) return blocked(`${branch} moved on past ${it.parent.slice(0, 12)}; nothing pushed`);
  const commit = await createFixCommit(
    octokit,
    repo,
    { baseSha: base, baseTree: it.baseTree, files: it.files, title: it.title },
    [it.parent],
    [`${ITERATION}: ${it.kind}`],
  );
  try {
    await octokit.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha: commit, force: false });
  } catch (err) {
    if ((err as { status?: number }).status === 422)
      return blocked(`${branch} moved while Hypofix pushed its iteration; nothing pushed`);
    throw err;
  }
  const body = `${fitBody(it.body)}\n\n${prMark(commit, base)}\n`;
  await octokit.rest.pulls.update({
    ...repo,
    pull_number: pullRequest.number,
    title: oneLine(it.title),
    body,
  });
  return { ...pullRequest, branch, commit, action: "updated" };
}
