import { codeSpan } from "../text.js";
import { branchHead, type GitHubClient, type RepoRef } from "./publish.js";

/** What GitHub showed about a head commit: the repository's own (and how we know), or not proven; plain text. */
export type HeadOwner = { own: true; proof: string } | { own: false; why: string };

const same = (fullName: string | undefined, repo: RepoRef) =>
  fullName?.toLowerCase() === `${repo.owner}/${repo.repo}`.toLowerCase();

/**
 * Whether GitHub shows `sha` as this repository's own: the tip of `refs/heads/<branch>`
 * here, or the head of an open pull request whose head repository is this one. Nothing a
 * payload leaves out counts; anything unproven, an API error included, is not the
 * repository's own, and the caller treats it as a fork's.
 */
export async function headOwner(
  octokit: GitHubClient,
  repo: RepoRef,
  sha: string,
  branch?: string,
): Promise<HeadOwner> {
  try {
    if (branch && (await branchHead(octokit, repo, branch)) === sha) {
      return { own: true, proof: `the tip of ${codeSpan(branch)}` };
    }
    const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: sha,
      per_page: 100,
    });
    const pr = data.find(
      (p) => p.state === "open" && p.head.sha === sha && same(p.head.repo?.full_name, repo),
    );
    if (pr) return { own: true, proof: `the head of pull request #${pr.number}` };
    const where = branch ? `the tip of ${codeSpan(branch)}` : "a branch's tip (the event names no branch)";
    return { own: false, why: `not ${where} nor the head of an open pull request from this repository` };
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    return { own: false, why: `GitHub could not show it is this repository's own: ${message}` };
  }
}
