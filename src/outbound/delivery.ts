import { forkFixComment, reviewBody, suggestionComment } from "../report/delivery.js";
import type { Result } from "../result.js";
import type { Checkout } from "./checkout.js";
import { opensPullRequests } from "../repo-config.js";
import { fixBranch, prCommentKey, type BlockedFix, type PublishedFix } from "./publish.js";
import { publishOutcome, type PublishTarget } from "./publish-outcome.js";
import type { PullRequestInfo, RepoHost } from "./repo-host.js";
import type { ReviewComment } from "./reviews.js";
import { planSuggestions, shownLines } from "./suggestions.js";

/** A finished fix run, as the pipeline hands it over. */
export interface FixRun {
  result: Result;
  report: string;
  patch: string;
  /** The report's first screen: a review's body. */
  firstScreen?: string;
}

export interface DeliveryTarget extends PublishTarget {
  /** The failing pull request, when the failure belongs to one (found from GitHub for a fork's head). */
  pr?: PullRequestInfo;
}

/** Where the fix went: a review of suggested changes, or what publishOutcome did; `unfit` says why no review. */
export type Delivered = {
  review?: { number: number; url: string; suggestions: number; action: "posted" | "unchanged" };
  pullRequest?: PublishedFix;
  blocked?: BlockedFix;
  /** Why suggestions were not posted, when they were considered. */
  unfit?: string;
  /** Why no fix pull request was opened: the repository's open ones reached `max_open_pull_requests`. */
  capped?: string;
};

/**
 * Delivers a fix run where the maintainer is (DESIGN.md, "Where a fix goes"): a validated
 * fix on an open pull request whose diff shows every changed line becomes one review of
 * suggested changes (the report's first screen as its body), for a fork's pull request
 * too; otherwise a same-repository head gets publishOutcome's fix pull request, and a fork's
 * pull request a comment with the appliable patch and the report. The check run, which the
 * caller concludes, carries the full report either way.
 */
export async function deliverFix(
  host: RepoHost,
  outcome: FixRun,
  checkout: Checkout,
  target: DeliveryTarget,
): Promise<Delivered> {
  const { result, patch } = outcome;
  const { pr, repoConfig } = target;
  const validated = result.status === "fixed" && patch !== "";
  let unfit: string | undefined;
  if (validated && pr && repoConfig.delivery === "suggestions" && repoConfig.mode === "pull-request") {
    const planned = await reviewFor(host, outcome, pr, target.headSha);
    if ("review" in planned) {
      // One review per failing commit: a retry, or a later command on it, finds it standing.
      const posted = await host.postReview(pr.number, planned.review, `fix:${target.headSha}`);
      return { review: { number: pr.number, suggestions: planned.review.comments.length, ...posted } };
    }
    unfit = planned.unfit;
  }
  if (validated && target.fork && pr) {
    const why = unfit ?? "suggested changes are turned off here";
    await host.comment(pr.number, forkFixComment(outcome.report, why), prCommentKey(pr.number));
    return { unfit: why };
  }
  if (validated && !target.fork && opensPullRequests(repoConfig)) {
    const capped = await capReached(host, target);
    if (capped) return { capped, ...(unfit === undefined ? {} : { unfit }) };
  }
  const published = await publishOutcome(host, outcome, checkout, target);
  return unfit === undefined ? published : { ...published, unfit };
}

/** Why a new fix pull request would pass the repository's cap; updating the branch's own one never does. */
async function capReached(host: RepoHost, target: DeliveryTarget): Promise<string | undefined> {
  const max = target.repoConfig.max_open_pull_requests;
  const open = await host.openFixBranches();
  if (open.length < max || open.includes(fixBranch(await target.baseBranch()))) return undefined;
  return `${open.length} Hypofix pull requests are open in this repository, the most \`max_open_pull_requests\` allows (${max}); merge or close one and Hypofix opens the next`;
}

/** The review of suggested changes for the patch, or why the pull request's diff cannot carry it. */
async function reviewFor(
  host: RepoHost,
  outcome: FixRun,
  pr: PullRequestInfo,
  headSha: string,
): Promise<{ review: { commitId: string; body: string; comments: ReviewComment[] } } | { unfit: string }> {
  if (!pr.open) return { unfit: `pull request #${pr.number} is not open` };
  if (pr.headSha !== headSha)
    return { unfit: `pull request #${pr.number}'s head moved past the failing commit` };
  const plan = planSuggestions(outcome.patch, shownLines(await host.pullRequestFiles(pr.number)));
  if ("unfit" in plan) return plan;
  const comments: ReviewComment[] = [];
  for (const s of plan.suggestions) {
    const body = suggestionComment(s.replacement);
    if (body === undefined) return { unfit: `a changed line of ${s.path} cannot be posted verbatim` };
    comments.push({
      path: s.path,
      line: s.line,
      ...(s.startLine < s.line ? { startLine: s.startLine } : {}),
      body,
    });
  }
  return { review: { commitId: headSha, body: reviewBody(outcome.firstScreen ?? outcome.report), comments } };
}
