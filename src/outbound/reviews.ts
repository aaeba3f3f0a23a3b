import { fitBody, type GitHubClient, type RepoRef } from "./publish.js";
import type { PullRequestFile } from "./suggestions.js";

/** One review comment: on line `line` of the head (the diff's right side), from `startLine` when it spans lines. */
export interface ReviewComment {
  path: string;
  line: number;
  startLine?: number;
  body: string;
}

export interface Review {
  /** The head commit the comments' lines belong to. */
  commitId: string;
  body: string;
  comments: ReviewComment[];
}

/** The pull request's changed files with their hunks, as GitHub lists them (every page). */
export async function pullRequestFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
): Promise<PullRequestFile[]> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    ...repo,
    pull_number: number,
    per_page: 100,
  });
  return files.map((f) => ({
    filename: f.filename,
    status: f.status,
    ...(f.patch ? { patch: f.patch } : {}),
  }));
}

const reviewMark = (key: string) => {
  if (!/^[a-z0-9:-]+$/.test(key)) throw new Error(`review key ${JSON.stringify(key)} is not a plain key`);
  return `<!-- hypofix:review ${key} -->`;
};

/**
 * Posts the review once per key: a re-run finds its earlier review (a bot's, carrying the
 * key's hidden marker) and posts none. Reviews cannot be edited into other suggestions, so an
 * earlier one stands as it is.
 */
export async function postReview(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
  review: Review,
  key: string,
): Promise<{ url: string; action: "posted" | "unchanged" }> {
  const mark = reviewMark(key);
  const earlier = (
    await octokit.paginate(octokit.rest.pulls.listReviews, { ...repo, pull_number: number, per_page: 100 })
  ).find((r) => r.user?.type === "Bot" && (r.body ?? "").includes(mark));
  if (earlier) return { url: earlier.html_url, action: "unchanged" };
  const { data } = await octokit.rest.pulls.createReview({
    ...repo,
    pull_number: number,
    commit_id: review.commitId,
    event: "COMMENT",
    body: `${fitBody(review.body)}\n\n${mark}\n`,
    comments: review.comments.map((c) => ({
      path: c.path,
      line: c.line,
      side: "RIGHT" as const,
      ...(c.startLine !== undefined && c.startLine < c.line
        ? { start_line: c.startLine, start_side: "RIGHT" as const }
        : {}),
      body: c.body,
    })),
  });
  return { url: data.html_url, action: "posted" };
}

/**
 * The open pull request whose head is `sha`, found among the repository's open pull
 * requests: a fork's check run and workflow run name none, so GitHub is asked.
 */
export async function openPullRequestForHead(
  octokit: GitHubClient,
  repo: RepoRef,
  sha: string,
): Promise<number | undefined> {
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: "open", per_page: 100 });
  return pulls.find((p) => p.head.sha === sha)?.number;
}
