import { fixTitle } from "../outbound/publish-outcome.js";
import { patchedFiles } from "../outbound/patched-files.js";
import { fixBranch, prCommentKey } from "../outbound/publish.js";
import type { FixChain, IterationKind } from "../outbound/iterations.js";
import type { PullRequestInfo, RepoHost } from "../outbound/repo-host.js";
import { blockedNote } from "../report/fix-notes.js";
import {
  iterationNote,
  iterationReport,
  iterationStopNote,
  type IterationCause,
} from "../report/iteration.js";
import { opensPullRequests, type RepoConfig } from "../repo-config.js";
import { ciFacts, fixOn } from "./fix-run.js";
import { CONCLUSION, type JobRun, type ResolvedJob } from "./job-run.js";

/*
 * A fix pull request Hypofix opened gets further iterations on its own branch: when CI fails
 * on its head (automatic, at most `max_ci_iterations` in a row), and when a maintainer with
 * write access requests changes in a review or comments `/fix` on it (steered). Each pushes one
 * commit on top of the head, to the same pull request; its body says what changed and why.
 */

const OWN_PREFIX = fixBranch("");

/** The fix pull request a job iterates on, checked against GitHub, or why it does nothing. */
export type IterationPlan = { kind: IterationKind; chain: FixChain } | { skipped: string };

/**
 * Whether the job is an iteration: a CI failure on a `hypofix/` branch of this repository, or
 * a `/fix` or review on a pull request from one. Undefined for every other job. The branch
 * must be our open pull request's, at the job's head, holding only Hypofix's commits.
 */
export async function planIteration(
  job: ResolvedJob,
  pr: PullRequestInfo | undefined,
  fork: boolean,
  config: RepoConfig,
  host: RepoHost,
): Promise<IterationPlan | undefined> {
  if (job.kind !== "ci-failure") return undefined;
  const branch = job.trigger === "ci" ? job.headBranch : pr?.sameRepoHeadRef;
  if (!branch?.startsWith(OWN_PREFIX)) return undefined;
  if (fork) return { skipped: `${branch} is a fork's branch, not Hypofix's` };
  const chain = await host.fixChain(branch, job.headSha, config.max_ci_iterations);
  if ("notOurs" in chain) return { skipped: chain.notOurs };
  return { kind: job.trigger === "ci" ? "ci" : "steered", chain };
}

/**
 * Runs one iteration: automatic ones on the failing head with the new failure, steered ones
 * again from the failing commit the chain fixes, with the maintainer's words as the
 * constraint. A validated fix is pushed on top of the head; anything else is the report as
 * the pull request's comment. Past the cap, only the check run and the comment say why not.
 */
export async function iterateJob(
  run: JobRun,
  plan: { kind: IterationKind; chain: FixChain },
): Promise<Record<string, unknown>> {
  const { job, host, check, repoConfig } = run;
  const { chain, kind } = plan;
  const number = chain.pullRequest.number;
  const max = repoConfig.max_ci_iterations;
  if (kind === "ci" && chain.ciIterations >= max) {
    const note = iterationStopNote(job.headSha, chain.ciIterations, max);
    await host.comment(number, note, prCommentKey(number));
    await check.conclude(
      "neutral",
      `Hypofix stops iterating on #${number}`,
      `${chain.ciIterations} automatic iteration(s) ran, the most max_ci_iterations allows (${max}); a review requesting changes or /fix <text> steers the next one`,
    );
    return { status: "stopped", pullRequest: number, iterations: chain.ciIterations };
  }
  const { tests, ciLog } = kind === "ci" ? await ciFacts(run) : { tests: [], ciLog: undefined };
  const checkout = await host.checkout(kind === "ci" ? job.headSha : chain.base);
  try {
    check.phase(
      "fetch",
      kind === "ci"
        ? `commit \`${job.headSha.slice(0, 12)}\` of #${number} fetched: iteration on its head`
        : `commit \`${chain.base.slice(0, 12)}\` fetched: #${number}'s failing commit, fixed again as asked`,
    );
    const { outcome, language } = await fixOn(run, checkout, {
      tests,
      ...(ciLog ? { ciLog } : {}),
      ...(kind === "steered" && job.instructions ? { constraint: job.instructions } : {}),
    });
    const { result } = outcome;
    const cause: IterationCause =
      kind === "ci"
        ? { kind, failingTests: result.failingTests, iteration: chain.ciIterations + 1, max }
        : {
            kind,
            by: job.requestedBy ?? "a maintainer",
            how: job.reviewId !== undefined ? "review" : "command",
            ...(job.instructions ? { text: job.instructions } : {}),
          };
    const body = iterationReport(iterationNote(cause, job.headSha, chain.base), outcome.report);
    let comment = body;
    if (result.status === "fixed" && outcome.patch !== "" && opensPullRequests(repoConfig)) {
      const rules = {
        files: language.files,
        sourcePaths: repoConfig.source_paths,
        ignorePaths: repoConfig.ignore_paths,
      };
      const pushed = await host.publishIteration({
        chain,
        parent: job.headSha,
        kind,
        baseTree: await checkout.tree(),
        files: await patchedFiles(checkout, outcome.patch, rules),
        title: fixTitle(result),
        body,
      });
      if (pushed.action !== "blocked") {
        await check.conclude("success", `Iteration pushed to #${number}`, `${result.reason}:`, {
          link: { label: `#${number}`, url: chain.pullRequest.url },
        });
        return { status: result.status, pullRequest: number, publish: "iterated", commit: pushed.commit };
      }
      run.context.log.warn({ branch: pushed.branch }, pushed.reason);
      comment = blockedNote(pushed.branch, body);
    }
    await host.comment(number, comment, prCommentKey(number));
    await check.conclude(CONCLUSION[result.status], `Hypofix: ${result.status}`, result.reason, {
      report: body,
    });
    return { status: result.status, pullRequest: number };
  } finally {
    await checkout.dispose();
  }
}
