import { fixBranch, type GitHubClient, type RepoRef } from "./publish.js";

/*
 * What keeps Hypofix quiet on GitHub: the `hypofix:skip` label of a pull request (which
 * `/hypofix pause` and `resume` set and clear), and the open fix pull requests counted
 * against a repository's cap.
 */

/** A pull request with this label gets no CI-triggered run. */
export const SKIP_LABEL = "hypofix:skip";

/** Adds or removes a label of an issue or pull request; removing one it lacks is no error. */
export async function setLabel(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  label: string,
  on: boolean,
): Promise<void> {
  if (on) {
    await octokit.rest.issues.addLabels({ ...repo, issue_number: issueNumber, labels: [label] });
    return;
  }
  try {
    await octokit.rest.issues.removeLabel({ ...repo, issue_number: issueNumber, name: label });
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}

/** The head branches of the repository's open fix pull requests (`hypofix/...` branches of this repository). */
export async function openFixBranches(octokit: GitHubClient, repo: RepoRef): Promise<string[]> {
  const prefix = fixBranch("");
  const own = `${repo.owner}/${repo.repo}`.toLowerCase();
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: "open", per_page: 100 });
  return pulls
    .filter((p) => p.head.ref.startsWith(prefix) && p.head.repo?.full_name.toLowerCase() === own)
    .map((p) => p.head.ref);
}
