import type { Language } from "../lang/types.js";
import { opensPullRequests, type RepoConfig } from "../repo-config.js";
import { blockedNote, proposedNote } from "../report/fix-notes.js";
import type { Result } from "../result.js";
import type { Checkout } from "./checkout.js";
import { patchedFiles } from "./patched-files.js";
import { prCommentKey, type BlockedFix, type PublishedFix } from "./publish.js";
import type { RepoHost } from "./repo-host.js";

/** Where and how a finished fix run is published. */
export interface PublishTarget {
  /** The failing commit the patch applies to. */
  headSha: string;
  /** The branch a fix pull request targets, asked only when one is opened. */
  baseBranch: () => Promise<string>;
  /** The failing pull request: it gets a pointer to the fix, or the report. */
  prNumber?: number;
  /** Mode and path rules, read once for the job. */
  repoConfig: RepoConfig;
  /** The repository's language: which files the patch may touch. */
  language: Language;
  /** A fork's head: never a branch or a pull request. */
  fork: boolean;
}

/**
 * Publishes a fix run as the App does: a validated fix becomes (or updates) the
 * failing branch's pull request, not for a fork's head nor in comment mode, with
 * a pointer on the failing pull request; anything else, a `partial` fix included
 * (its report says which tests it fixes and which still fail), is the report as a
 * comment on it. The CLI's `--open-pr` calls this too.
 */
export async function publishOutcome(
  host: RepoHost,
  outcome: { result: Result; report: string; patch: string },
  checkout: Checkout,
  target: PublishTarget,
): Promise<{ pullRequest?: PublishedFix; blocked?: BlockedFix }> {
  const { result } = outcome;
  const { repoConfig } = target;
  let blocked: BlockedFix | undefined;
  if (result.status === "fixed" && outcome.patch && opensPullRequests(repoConfig) && !target.fork) {
    const rules = {
      files: target.language.files,
      sourcePaths: repoConfig.source_paths,
      ignorePaths: repoConfig.ignore_paths,
    };
    const pr = await host.publishFix({
      baseSha: target.headSha,
      baseTree: await checkout.tree(),
      baseBranch: await target.baseBranch(),
      files: await patchedFiles(checkout, outcome.patch, rules),
      title: fixTitle(result),
      body: outcome.report,
    });
    if (pr.action !== "blocked") {
      if (target.prNumber)
        await host.comment(target.prNumber, proposedNote(pr.number), prCommentKey(target.prNumber));
      return { pullRequest: pr };
    }
    blocked = pr;
    if (pr.pullRequest) {
      const on = pr.pullRequest.number;
      await host.comment(on, blockedNote(pr.branch, outcome.report), prCommentKey(on));
    }
  }
  if (target.prNumber) await host.comment(target.prNumber, outcome.report, prCommentKey(target.prNumber));
  return blocked ? { blocked } : {};
}

/** The title of a fix pull request and of its commits. */
export function fixTitle(result: Result): string {
  const where = result.localization[0];
  const tests =
    result.failingTests.length === 1 ? result.failingTests[0] : `${result.failingTests.length} tests`;
  return where ? `Fix ${where.function} (${where.file}) failing ${tests}` : `Fix failing ${tests}`;
}
