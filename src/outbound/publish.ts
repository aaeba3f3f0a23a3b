import type { ProbotOctokit } from "probot";
import type { FileChange } from "./patched-files.js";

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
  /** That commit's root tree, known from the checkout: the fix's tree builds on it without a read. */
  baseTree: string;
  /** Branch the pull request targets (the failing PR's head branch, or the default branch). */
  baseBranch: string;
  /** Every file the patch changes, with the mode it keeps; null content deletes it. */
  files: FileChange[];
  title: string;
  body: string;
}

export interface PublishedFix {
  number: number;
  url: string;
  branch: string;
  /** The fix commit the pull request shows. */
  commit: string;
  /** What this call did: opened a PR, moved an open one to a new fix, or found the work already done. */
  action: "opened" | "updated" | "unchanged";
}

/** The fix branch's head holds a commit Hypofix did not make: it is left alone. */
export interface BlockedFix {
  action: "blocked";
  branch: string;
  reason: string;
  /** The open pull request from that branch, if any. */
  pullRequest?: { number: number; url: string };
}

/** One fix branch per failing branch: a second failure of the same branch updates its pull request. */
export function fixBranch(baseBranch: string): string {
  return `hypofix/${baseBranch}`;
}

/** Names, in a Hypofix commit's message, the failing commit it fixes; marks the commit as Hypofix's. */
const TRAILER = "Hypofix-Fixes";
export const trailerOf = (message: string) =>
  new RegExp(`^${TRAILER}: ([0-9a-f]{40})$`, "m").exec(message)?.[1];

/**
 * Hidden, inert markers in what Hypofix posts: HTML comments whose content is only
 * our own fixed words and hex ids, so they find our posts again and render as nothing.
 */
const PR_MARK = /<!-- hypofix:fix head=([0-9a-f]{40}) base=([0-9a-f]{40}) -->/g;
export const prMark = (head: string, base: string) => `<!-- hypofix:fix head=${head} base=${base} -->`;

/**
 * What our pull request's body records: the fix commit it shows and the failing commit
 * that fix is for. The last marker is ours (it ends the body); an earlier one can only
 * be quoted text, such as a diff or test output in a code block.
 */
export function recordedFix(body: string | null | undefined): { head: string; base: string } | undefined {
  const m = [...(body ?? "").matchAll(PR_MARK)].at(-1);
  return m ? { head: m[1]!, base: m[2]! } : undefined;
}

/** A title as one line: repository text in it (function and test names) cannot add lines, such as a trailer. */
export const oneLine = (title: string) => title.replace(/\s+/g, " ").trim();

const status = (err: unknown) => (err as { status?: number }).status;

/** The commit a branch points at, or undefined when there is no such branch. */
export async function branchHead(
  octokit: GitHubClient,
  repo: RepoRef,
  branch: string,
): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` });
    // getRef answers a prefix with a list of refs; only an exact match is the branch.
    return Array.isArray(data) ? undefined : data.object.sha;
  } catch (err) {
    if (status(err) === 404) return undefined;
    throw err;
  }
}

export interface OpenPull {
  number: number;
  url: string;
  title: string;
  body: string;
  /** Opened by a bot (an App's pull requests are): a person's pull request from a `hypofix/` branch is not ours. */
  byBot: boolean;
}

/** The open pull request from one of our branches, if any. */
export async function openPullFrom(
  octokit: GitHubClient,
  repo: RepoRef,
  branch: string,
): Promise<OpenPull | undefined> {
  const { data } = await octokit.rest.pulls.list({ ...repo, head: `${repo.owner}:${branch}`, state: "open" });
  const pr = data.find((p) => p.head.ref === branch);
  return (
    pr && {
      number: pr.number,
      url: pr.html_url,
      title: pr.title,
      body: pr.body ?? "",
      byBot: pr.user?.type === "Bot",
    }
  );
}

/**
 * Whether `head` is a commit Hypofix made, so moving the branch loses no one's work:
 * once a pull request exists, the commit its body records (or our commit made on top
 * of it and not yet recorded); before, a commit carrying our trailer.
 */
export function ours(
  head: { sha: string; message: string; parents: string[] },
  pr: OpenPull | undefined,
): boolean {
  if (trailerOf(head.message) === undefined) return false;
  if (!pr) return true;
  const recorded = recordedFix(pr.body)?.head;
  return recorded !== undefined && (head.sha === recorded || head.parents.includes(recorded));
}

export async function readCommit(octokit: GitHubClient, repo: RepoRef, sha: string) {
  const { data } = await octokit.rest.git.getCommit({ ...repo, commit_sha: sha });
  return { sha: data.sha, message: data.message, parents: data.parents.map((p) => p.sha) };
}

/** One tree with the files inline (no blob per file), then the commit; `trailers` go after ours. */
export async function createFixCommit(
  octokit: GitHubClient,
  repo: RepoRef,
  fix: Pick<FixPullRequest, "baseSha" | "baseTree" | "files" | "title">,
  parents: string[],
  trailers: string[] = [],
): Promise<string> {
  const { data: tree } = await octokit.rest.git.createTree({
    ...repo,
    base_tree: fix.baseTree,
    tree: fix.files.map((f) =>
      f.content === null
        ? { path: f.path, mode: f.mode, type: "blob" as const, sha: null }
        : { path: f.path, mode: f.mode, type: "blob" as const, content: f.content },
    ),
  });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...repo,
    message: `${oneLine(fix.title)}\n\n${[`${TRAILER}: ${fix.baseSha}`, ...trailers].join("\n")}\n`,
    tree: tree.sha,
    parents,
  });
  return commit.sha;
}

/**
 * Publishes a validated fix idempotently: every write first checks what exists
 * (the branch, its commit, the pull request) and completes from there, so a re-run
 * after a crash ends with the same pull request and no new commit.
 *
 * The branch is moved only from a commit Hypofix made, and only by a fast-forward:
 * an update is a commit whose parents are the new failing commit and our previous
 * fix, so GitHub itself refuses the move if anyone pushed meanwhile
 * (compare-and-swap; no forced update ever).
 */
export async function publishFix(
  octokit: GitHubClient,
  repo: RepoRef,
  fix: FixPullRequest,
): Promise<PublishedFix | BlockedFix> {
  const branch = fixBranch(fix.baseBranch);
  // A second pass only when someone else wrote the branch or the pull request between our read and our write.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [head, pr] = await Promise.all([
      branchHead(octokit, repo, branch),
      openPullFrom(octokit, repo, branch),
    ]);
    let commit: string;
    if (head === undefined) {
      commit = await createFixCommit(octokit, repo, fix, [fix.baseSha]);
      try {
        await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha: commit });
      } catch (err) {
        // Someone created the branch meanwhile: look again. Any other refusal is the answer.
        if (status(err) === 422 && (await branchHead(octokit, repo, branch)) !== undefined) continue;
        throw err;
      }
    } else {
      const current = await readCommit(octokit, repo, head);
      if (!ours(current, pr)) {
        return {
          action: "blocked",
          branch,
          reason: `${branch} holds ${head.slice(0, 12)}, a commit Hypofix did not make; it is left as it is`,
          ...(pr ? { pullRequest: { number: pr.number, url: pr.url } } : {}),
        };
      }
      if (trailerOf(current.message) === fix.baseSha) {
        commit = head;
      } else {
        commit = await createFixCommit(octokit, repo, fix, [fix.baseSha, head]);
        try {
          await octokit.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha: commit, force: false });
        } catch (err) {
          if (status(err) === 422 && (await branchHead(octokit, repo, branch)) !== head) continue;
          throw err;
        }
      }
    }
    const body = `${fitBody(fix.body)}\n\n${prMark(commit, fix.baseSha)}\n`;
    if (pr) {
      if (recordedFix(pr.body)?.head === commit) {
        return { number: pr.number, url: pr.url, branch, commit, action: "unchanged" };
      }
      // The branch moved to our commit (now, or in a run that stopped before saying so): the PR says so.
      await octokit.rest.pulls.update({ ...repo, pull_number: pr.number, title: oneLine(fix.title), body });
      return { number: pr.number, url: pr.url, branch, commit, action: "updated" };
    }
    try {
      const { data: created } = await octokit.rest.pulls.create({
        ...repo,
        head: branch,
        base: fix.baseBranch,
        title: oneLine(fix.title),
        body,
        maintainer_can_modify: true,
      });
      return { number: created.number, url: created.html_url, branch, commit, action: "opened" };
    } catch (err) {
      // "A pull request already exists": another run opened it meanwhile; the next pass finds it.
      if (status(err) === 422 && (await openPullFrom(octokit, repo, branch)) !== undefined) continue;
      throw err;
    }
  }
  throw new Error(`${branch} kept changing while Hypofix published its fix; not retried further`);
}

/**
 * Our open pull request with a fix for `baseSha`, as we left it (its branch still at the
 * recorded commit): a re-run for that commit has nothing left to publish.
 */
export async function publishedFix(
  octokit: GitHubClient,
  repo: RepoRef,
  baseBranch: string,
  baseSha: string,
): Promise<{ number: number; url: string } | undefined> {
  const branch = fixBranch(baseBranch);
  const pr = await openPullFrom(octokit, repo, branch);
  const recorded = pr && recordedFix(pr.body);
  if (!pr || recorded?.base !== baseSha) return undefined;
  return (await branchHead(octokit, repo, branch)) === recorded.head
    ? { number: pr.number, url: pr.url }
    : undefined;
}

/**
 * The key of Hypofix's one comment on a pull request (the report, the pointer to the fix, why
 * it stops), edited in place by every later run and found again by a retry. Replies to a
 * command (a refusal, an /explain) are their own.
 */
export const prCommentKey = (pr: number): string => `report:pr${pr}`;

/** Marks a comment as Hypofix's post for `key` (our own words: letters, digits, `:`, `-`). */
const commentMark = (key: string) => {
  if (!/^[a-z0-9:-]+$/.test(key)) throw new Error(`comment key ${JSON.stringify(key)} is not a plain key`);
  return `<!-- hypofix:comment ${key} -->`;
};

/**
 * Whether a listed comment is Hypofix's own: made through our App when its id is known
 * (another App's bot, e.g. a workflow's, could quote our marker), else made by a bot.
 */
export function ownComment(
  c: { user?: { type?: string } | null; performed_via_github_app?: { id?: number } | null },
  appId: number | undefined,
): boolean {
  return appId !== undefined ? c.performed_via_github_app?.id === appId : c.user?.type === "Bot";
}

/**
 * Where the ids of Hypofix's keyed comments on one repository are remembered, so that
 * finding one again is one request, not a listing of every comment on the pull request
 * (which anyone can fill). A lost or stale id only costs the listing.
 */
export interface CommentIds {
  get(issueNumber: number, key: string): Promise<number | undefined>;
  set(issueNumber: number, key: string, id: number): Promise<void>;
}

/**
 * Posts a comment once per key: a re-run finds its earlier comment by the hidden
 * marker and leaves it (or updates it when the text changed) instead of posting again.
 * Only our own comment counts, so nobody can quote the marker to silence Hypofix.
 * With `ids`, the comment is looked up by the id remembered for its key, and the
 * comments are listed only when there is none or it is gone.
 */
export async function upsertComment(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  key: string,
  text: string,
  appId?: number,
  ids?: CommentIds,
): Promise<{ url: string; action: "posted" | "updated" | "unchanged" }> {
  const mark = commentMark(key);
  const body = `${fitBody(text)}\n\n${mark}\n`;
  const isOurs = (c: Parameters<typeof ownComment>[0] & { body?: string | null }) =>
    ownComment(c, appId) && (c.body ?? "").includes(mark);
  const remembered = await rememberedComment(octokit, repo, ids, issueNumber, key);
  const existing =
    remembered && isOurs(remembered)
      ? remembered
      : (
          await octokit.paginate(octokit.rest.issues.listComments, {
            ...repo,
            issue_number: issueNumber,
            per_page: 100,
          })
        ).find(isOurs);
  if (existing) {
    if (existing.id !== remembered?.id) await ids?.set(issueNumber, key, existing.id);
    if (existing.body === body) return { url: existing.html_url, action: "unchanged" };
    await octokit.rest.issues.updateComment({ ...repo, comment_id: existing.id, body });
    return { url: existing.html_url, action: "updated" };
  }
  const { data } = await octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
  await ids?.set(issueNumber, key, data.id);
  return { url: data.html_url, action: "posted" };
}

/** The comment whose id is remembered for `key`, if it still exists (the caller checks it is still ours). */
async function rememberedComment(
  octokit: GitHubClient,
  repo: RepoRef,
  ids: CommentIds | undefined,
  issueNumber: number,
  key: string,
) {
  const id = await ids?.get(issueNumber, key);
  if (id === undefined) return undefined;
  try {
    const { data } = await octokit.rest.issues.getComment({ ...repo, comment_id: id });
    return data;
  } catch (err) {
    if (status(err) === 404) return undefined;
    throw err;
  }
}

/** Whether `later` is `earlier` or a descendant of it (a green run on an older commit says nothing about the fix). */
async function includes(
  octokit: GitHubClient,
  repo: RepoRef,
  earlier: string,
  later: string,
): Promise<boolean> {
  if (earlier === later) return true;
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    ...repo,
    basehead: `${earlier}...${later}`,
    per_page: 1,
  });
  return data.status === "ahead" || data.status === "identical";
}

const PASSED = new Set(["success", "neutral", "skipped"]);

/**
 * Whether every check on `sha` (Hypofix's own aside) has completed and passed: one
 * green check run or workflow among others says nothing while the rest fail or run.
 */
async function ciPassed(octokit: GitHubClient, repo: RepoRef, sha: string): Promise<boolean> {
  const runs = (
    await octokit.paginate(octokit.rest.checks.listForRef, { ...repo, ref: sha, per_page: 100 })
  ).filter((r) => r.name !== "Hypofix");
  return runs.length > 0 && runs.every((r) => r.status === "completed" && PASSED.has(r.conclusion ?? ""));
}

/**
 * The failing branch's CI passed at `greenSha` without our fix: our open pull
 * request for it is closed, with a comment saying why. Nothing happens when there is
 * none, when it is not ours, when someone else pushed to its branch, when the green
 * commit is older than the failure it fixes, or while any other check on it has not passed.
 */
export async function closeFixPullRequest(
  octokit: GitHubClient,
  repo: RepoRef,
  options: { baseBranch: string; greenSha: string; note: string },
  appId?: number,
): Promise<{ number: number; url: string } | undefined> {
  const branch = fixBranch(options.baseBranch);
  const pr = await openPullFrom(octokit, repo, branch);
  const recorded = pr && recordedFix(pr.body);
  if (!pr || !recorded) return undefined;
  // Someone pushed to our branch: the pull request is partly theirs now, and theirs to close.
  if ((await branchHead(octokit, repo, branch)) !== recorded.head) return undefined;
  if (!(await includes(octokit, repo, recorded.base, options.greenSha))) return undefined;
  if (!(await ciPassed(octokit, repo, options.greenSha))) return undefined;
  await upsertComment(octokit, repo, pr.number, prCommentKey(pr.number), options.note, appId);
  await octokit.rest.pulls.update({ ...repo, pull_number: pr.number, state: "closed" });
  return { number: pr.number, url: pr.url };
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
