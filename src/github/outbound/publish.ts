import type { ProbotOctokit } from "probot";

export type GitHubClient = InstanceType<typeof ProbotOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

/** GitHub rejects bodies over 65,536 characters; the report is cut with a visible note. */
export const MAX_BODY = 65_000;

export function fitBody(body: string): string {
  if (body.length <= MAX_BODY) return body;
  const note = "\n\n> Report truncated to fit GitHub's limit; the full report is in the job's result.\n";
  return body.slice(0, MAX_BODY - note.length) + note;
}

export interface FixPullRequest {
  /** The commit the fix applies to (the failing head). */
  baseSha: string;
  /** Branch the pull request targets (the failing PR's head branch, or the default branch). */
  baseBranch: string;
  /** Full new contents of every file the patch changes; null deletes the file. */
  files: Record<string, string | null>;
  title: string;
  body: string;
}

/** Branch name for a fix of a given commit: stable, so a retried job reuses it. */
export function fixBranch(baseSha: string): string {
  return `hypofix/fix-${baseSha.slice(0, 12)}`;
}

/**
 * Commits the patched files on a new branch with the Git Data API (no clone
 * with write credentials needed) and opens the pull request.
 */
export async function openFixPullRequest(
  octokit: GitHubClient,
  repo: RepoRef,
  fix: FixPullRequest,
): Promise<{ number: number; url: string; branch: string }> {
  const tree = await Promise.all(
    Object.entries(fix.files).map(async ([path, content]) => {
      if (content === null) return { path, mode: "100644" as const, type: "blob" as const, sha: null };
      const { data: blob } = await octokit.rest.git.createBlob({ ...repo, content, encoding: "utf-8" });
      return { path, mode: "100644" as const, type: "blob" as const, sha: blob.sha };
    }),
  );
  const { data: base } = await octokit.rest.git.getCommit({ ...repo, commit_sha: fix.baseSha });
  const { data: newTree } = await octokit.rest.git.createTree({ ...repo, base_tree: base.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...repo,
    message: fix.title,
    tree: newTree.sha,
    parents: [fix.baseSha],
  });
  const branch = fixBranch(fix.baseSha);
  try {
    await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha: commit.sha });
  } catch (err) {
    // A retried job finds its own branch: move it to the new commit.
    if ((err as { status?: number }).status !== 422) throw err;
    await octokit.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha: commit.sha, force: true });
  }
  const { data: pr } = await octokit.rest.pulls.create({
    ...repo,
    head: branch,
    base: fix.baseBranch,
    title: fix.title,
    body: fitBody(fix.body),
    maintainer_can_modify: true,
  });
  return { number: pr.number, url: pr.html_url, branch };
}

/** Comments on a pull request (what Hypofix learned when it has no validated fix, or an /explain reply). */
export async function comment(octokit: GitHubClient, repo: RepoRef, issueNumber: number, body: string) {
  const { data } = await octokit.rest.issues.createComment({
    ...repo,
    issue_number: issueNumber,
    body: fitBody(body),
  });
  return { url: data.html_url };
}

export type CheckConclusion = "success" | "neutral" | "failure" | "action_required";

export interface CheckOutcome {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  detailsUrl?: string;
}

/** Reports the job's outcome as a Hypofix check run on the commit. */
export async function reportCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  outcome: CheckOutcome,
): Promise<void> {
  await octokit.rest.checks.create({
    ...repo,
    name: "Hypofix",
    head_sha: headSha,
    status: "completed",
    conclusion: outcome.conclusion,
    ...(outcome.detailsUrl ? { details_url: outcome.detailsUrl } : {}),
    output: { title: outcome.title.slice(0, 255), summary: fitBody(outcome.summary) },
  });
}
