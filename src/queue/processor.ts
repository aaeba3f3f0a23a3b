import type { Logger } from "pino";
import type { HeadOwner } from "../outbound/head-owner.js";
import { deliverFix } from "../outbound/delivery.js";
import { prCommentKey } from "../outbound/publish.js";
import type { PullRequestInfo, RepoHost } from "../outbound/repo-host.js";
import { configProblemReply, staleHeadReply } from "../report/check-run.js";
import { explainReply } from "../report/explain.js";
import { proposedNote } from "../report/fix-notes.js";
import { opensPullRequests } from "../repo-config.js";
import { UserError } from "../errors.js";
import { refusedCommand } from "./command-access.js";
import { greenJob } from "./green.js";
import { pauseJob } from "./pause.js";
import { SKIP_LABEL } from "../outbound/quiet.js";
import { answeredReason, earlierAnswer, rememberAnswer } from "./dedupe.js";
import { ciFacts, fixOn } from "./fix-run.js";
import { iterateJob, planIteration } from "./iterate.js";
import { abortReason, JobCheck } from "./job-check.js";
import { CONCLUSION, type JobRun, type ProcessorDeps, type ResolvedJob } from "./job-run.js";
import { jobIdFor, type HypofixJob } from "./job.js";
import { JobStopped, type JobContext, type JobProcessor } from "./worker.js";

export type { ExplainRequest, FixRequest, ProcessorDeps } from "./job-run.js";

/** The job's stable key: its check run's external id, the same for every attempt and for the final-failure hook. */
function checkKey(job: HypofixJob): string {
  return jobIdFor(job);
}

/**
 * Turns a queued job into a fix pull request, a comment, or an /explain reply,
 * with a check run on the head commit that follows it. A command is checked
 * first (write access, a head the commenter saw); configuration is read once,
 * from the default branch; a fork's head is never published.
 */
export function createJobProcessor(deps: ProcessorDeps): JobProcessor {
  return async (job, context) => {
    const host = await deps.connect(job.installationId, { owner: job.repo.owner, repo: job.repo.name });
    try {
      return await processJob(job, context, deps, host);
    } finally {
      await host
        .dispose()
        .catch((err: unknown) => context.log.warn({ err: String(err) }, "could not revoke the token"));
    }
  };
}

async function processJob(
  job: HypofixJob,
  context: JobContext,
  deps: ProcessorDeps,
  host: RepoHost,
): Promise<Record<string, unknown>> {
  if (job.kind === "ci-green") return greenJob(host, job);
  if (job.kind === "pause" || job.kind === "resume") return pauseJob(host, job, context.log);
  let pr: PullRequestInfo | undefined;
  if (job.trigger === "command") {
    const admitted = await admitCommand(job, host, context.log);
    if ("refused" in admitted) return { status: "refused", reason: admitted.refused };
    pr = admitted.pr;
  } else if (job.prNumber !== undefined) {
    pr = await host.pullRequest(job.prNumber);
  } else if (job.kind === "ci-failure" && job.headSha) {
    pr = await pullRequestOfHead(host, job.headSha, context.log);
  }
  if (job.trigger === "ci" && pr?.labels.includes(SKIP_LABEL)) {
    // Paused (the label, or `/hypofix pause`): nothing is posted, not even a check run; a command still runs.
    context.log.info({ pr: pr.number }, "pull request labelled hypofix:skip");
    return { status: "skipped", reason: `pull request #${pr.number} is labelled ${SKIP_LABEL}` };
  }
  const headSha = pr && job.trigger === "command" ? pr.headSha : job.headSha;
  if (!headSha) throw new UserError("the job names no head commit");
  const resolved: ResolvedJob = { ...job, headSha };
  const owner = await headOwner(job, headSha, pr, host);
  const fork = !owner.own;
  context.log.info({ headSha, fork, why: owner.own ? owner.proof : owner.why }, "whose head");
  // Stopped before anything was shown on the commit: the worker decides what the job becomes.
  context.signal.throwIfAborted();

  const lookup = await host.repoConfig();
  const check = new JobCheck(host, headSha, checkKey(job), context.log);
  if ("problem" in lookup) {
    context.log.warn({ problem: lookup.problem }, "invalid repository configuration");
    await check.conclude("action_required", "Hypofix configuration is invalid", lookup.problem);
    if (job.trigger === "command" && job.prNumber) {
      await host.comment(job.prNumber, configProblemReply(lookup.problem));
    }
    return { status: "bad-config", reason: lookup.problem };
  }
  if (fork && lookup.config.forks === "off") {
    context.log.info("fork head, and forks: off");
    return { status: "skipped", reason: "the head commit is a fork's (forks: off)" };
  }

  const iteration = await planIteration(resolved, pr, fork, lookup.config, host);
  if (iteration && "skipped" in iteration) {
    // Not ours to iterate on (someone else's branch or pull request, or a head that moved on): nothing is posted.
    context.log.info({ why: iteration.skipped }, "no iteration");
    return { status: "skipped", reason: iteration.skipped };
  }

  await check.start();
  const run: JobRun = {
    job: resolved,
    context,
    deps,
    host,
    check,
    repoConfig: lookup.config,
    fork,
    ...(owner.own ? {} : { forkReason: owner.why }),
    pr,
  };
  try {
    context.signal.throwIfAborted();
    if (job.kind === "explain") return await explainJob(run);
    return iteration ? await iterateJob(run, iteration) : await fixJob(run);
  } catch (err) {
    if (context.signal.aborted) {
      // Cancelled (the branch moved on) ends the check run here; a passed deadline is a final
      // failure (the hook ends it); at shutdown another worker takes the job and its check run.
      const stopped: unknown = context.signal.reason;
      if (!(stopped instanceof JobStopped) || stopped.why === "cancelled") {
        await check.conclude("cancelled", "Hypofix stopped", abortReason(context.signal));
      }
      throw err;
    }
    const message =
      err instanceof UserError ? err.oneLine() : err instanceof Error ? err.message : String(err);
    if (err instanceof UserError) {
      await check.conclude("failure", "Hypofix cannot run this job", message);
    } else {
      check.phase("attempt", `attempt ${context.attempt} failed: ${message}; retried if attempts remain`);
      await check.settled();
    }
    throw err;
  }
}

/**
 * The worker's final-failure hook: the job's check run (found by its stable key,
 * or created) is concluded `failure` with the reason, unless it already ended.
 */
export function createFinalFailureHook(
  deps: Pick<ProcessorDeps, "connect">,
): (job: HypofixJob, error: Error, log: Logger) => Promise<void> {
  return async (job, error, log) => {
    const host = await deps.connect(job.installationId, { owner: job.repo.owner, repo: job.repo.name });
    const headSha =
      job.headSha ?? (job.prNumber ? (await host.pullRequest(job.prNumber)).headSha : undefined);
    if (!headSha) return;
    const found = await host.findCheckRun(headSha, checkKey(job));
    if (found?.status === "completed") return;
    const check = new JobCheck(host, headSha, checkKey(job), log);
    if (found) await check.start(found);
    const reason = error instanceof UserError ? error.oneLine() : error.message;
    await check.conclude("failure", "Hypofix failed", `the job failed for good: ${reason}`);
  };
}

/**
 * Whether the head is the repository's own, as GitHub shows it (RepoHost.headOwner), never
 * as a payload leaves it out: the one event a job was made from may not say it is a fork's
 * (a fork's check run names no pull request and no head repository). Any sign of a fork
 * wins: a head repository elsewhere, a pull request whose head lives elsewhere.
 */
async function headOwner(
  job: HypofixJob,
  headSha: string,
  pr: PullRequestInfo | undefined,
  host: RepoHost,
): Promise<HeadOwner> {
  const own = `${job.repo.owner}/${job.repo.name}`.toLowerCase();
  if (job.headRepo && `${job.headRepo.owner}/${job.headRepo.name}`.toLowerCase() !== own)
    return {
      own: false,
      why: `the event names ${job.headRepo.owner}/${job.headRepo.name} as the head's repository`,
    };
  if (pr && pr.sameRepoHeadRef === undefined)
    return { own: false, why: `pull request #${pr.number}'s head lives in another repository` };
  if (pr?.open && pr.headSha === headSha)
    return { own: true, proof: `the head of pull request #${pr.number}` };
  return host.headOwner(headSha, job.headBranch ?? pr?.sameRepoHeadRef);
}

/**
 * A `/fix` or `/explain` runs only for a user with write access (one refusal
 * reply per user and pull request), and only on the head the commenter saw: a
 * head committed after the comment is refused with a request for a new command.
 * An accepted command gets 👀 on its comment.
 */
async function admitCommand(
  job: HypofixJob,
  host: RepoHost,
  log: Logger,
): Promise<{ pr: PullRequestInfo } | { refused: string }> {
  const command = job.kind === "explain" ? "explain" : "fix";
  if (job.prNumber === undefined || !job.requestedBy) {
    throw new UserError("a command job needs the pull request and who asked");
  }
  const login = job.requestedBy;
  const refused = await refusedCommand(host, job.prNumber, login, log);
  if (refused) return { refused };
  const pr = await host.pullRequest(job.prNumber);
  const moved = job.headSha !== undefined && job.headSha !== pr.headSha;
  const newer =
    job.commentedAt !== undefined &&
    Date.parse(await host.committedAt(pr.headSha)) > Date.parse(job.commentedAt);
  if (moved || newer) {
    await host.comment(job.prNumber, staleHeadReply(login, command, pr.headSha));
    log.info(
      { headSha: pr.headSha, commentedAt: job.commentedAt },
      "command refused: head is newer than the comment",
    );
    return { refused: "the head was committed after the comment" };
  }
  if (job.commentId !== undefined) {
    await host.reactToComment(job.commentId, "eyes").catch((err: unknown) => {
      log.warn({ err: String(err) }, "could not react to the command");
    });
  }
  return { pr };
}

/**
 * The open pull request a CI failure belongs to when the event named none (a fork's
 * check run and workflow run never do): looked up by its head; a lookup that fails
 * leaves the job without one, as before.
 */
async function pullRequestOfHead(
  host: RepoHost,
  headSha: string,
  log: Logger,
): Promise<PullRequestInfo | undefined> {
  try {
    const number = await host.openPullRequestForHead(headSha);
    return number === undefined ? undefined : await host.pullRequest(number);
  } catch (err) {
    log.warn({ err: String(err) }, "could not look for the head's pull request");
    return undefined;
  }
}

async function fixJob(run: JobRun): Promise<Record<string, unknown>> {
  const { job, context, host, check, repoConfig, fork } = run;
  const { tests, ciLog } = await ciFacts(run);
  // A re-run after publishing (a worker lost after the PR) ends with that PR, without running again.
  if (job.trigger === "ci" && opensPullRequests(repoConfig) && !fork) {
    // Only a shortcut: when the lookup fails, the run goes on and publishing checks again.
    const done = await fixBase(host, job, run.pr)
      .then((base) => host.publishedFix(base, job.headSha))
      .catch(
        (err: unknown) => void context.log.warn({ err: String(err) }, "could not look for an earlier fix"),
      );
    if (done) {
      await concludeProposed(check, done, "a validated fix for this commit is already proposed");
      if (job.prNumber)
        await host.comment(job.prNumber, proposedNote(done.number), prCommentKey(job.prNumber));
      return { status: "fixed", pullRequest: done.number, publish: "unchanged" };
    }
  }
  const checkout = await host.checkout(job.headSha);
  try {
    check.phase(
      "fetch",
      `commit \`${job.headSha.slice(0, 12)}\` fetched${run.forkReason ? ` (a fork's head, ${run.forkReason}: no network for setup, no pull request)` : ""}`,
    );
    const { outcome, language } = await fixOn(run, checkout, {
      tests,
      ...(ciLog ? { ciLog } : {}),
      ...(job.instructions ? { constraint: job.instructions } : {}),
    });
    const { result } = outcome;
    // A pull request gets one comment from Hypofix (prCommentKey): the report, or the pointer to our
    // fix PR, edited in place by each later run (a new commit, a /fix) and found again by a retry.
    const prNumber = run.pr?.number ?? job.prNumber;
    const baseBranch = () => fixBase(host, job, run.pr);
    const earlier = await earlierAnswer(run, result, baseBranch);
    if (earlier) {
      await check.conclude(
        "neutral",
        "Validated fix not posted: this failure is already answered",
        answeredReason(earlier, result.failureSignature ?? ""),
        { link: { label: `#${earlier.number}`, url: earlier.url }, report: outcome.report },
      );
      return { status: result.status, answered: earlier.number };
    }
    const published = await deliverFix(host, outcome, checkout, {
      headSha: job.headSha,
      baseBranch,
      repoConfig,
      language,
      fork,
      ...(prNumber ? { prNumber } : {}),
      ...(run.pr ? { pr: run.pr } : {}),
    });
    await rememberAnswer(run, result, published);
    if (published.blocked) context.log.warn({ branch: published.blocked.branch }, published.blocked.reason);
    if (published.unfit) context.log.info({ why: published.unfit }, "no suggested changes");
    const review = published.review;
    if (review) {
      await check.conclude("success", `Validated fix suggested on #${review.number}`, `${result.reason}:`, {
        link: { label: `the review on #${review.number}`, url: review.url },
        report: outcome.report,
      });
      return {
        status: result.status,
        review: review.number,
        suggestions: review.suggestions,
        publish: review.action,
      };
    }
    if (published.capped) {
      await check.conclude(
        "neutral",
        "Validated fix not opened: too many open Hypofix pull requests",
        published.capped,
        {
          report: outcome.report,
        },
      );
      return { status: result.status, capped: true };
    }
    const pr = published.pullRequest;
    if (pr) {
      await concludeProposed(check, pr, result.reason);
      return { status: result.status, pullRequest: pr.number, publish: pr.action };
    }
    await check.conclude(CONCLUSION[result.status], `Hypofix: ${result.status}`, result.reason, {
      report: outcome.report,
    });
    return { status: result.status };
  } finally {
    await checkout.dispose();
  }
}

/** The check run of a job whose fix pull request stands: success, with the link. */
function concludeProposed(
  check: JobCheck,
  pr: { number: number; url: string },
  reason: string,
): Promise<void> {
  return check.conclude("success", `Validated fix proposed in #${pr.number}`, `${reason}:`, {
    link: { label: `#${pr.number}`, url: pr.url },
  });
}

/** A fix targets the failing PR's branch when it lives in this repository, else the branch the run was on. */
async function fixBase(host: RepoHost, job: ResolvedJob, pr: PullRequestInfo | undefined): Promise<string> {
  if (pr) return pr.sameRepoHeadRef ?? pr.baseRef;
  return job.headBranch ?? (await host.repository()).defaultBranch;
}

async function explainJob(run: JobRun): Promise<Record<string, unknown>> {
  // processJob has read the pull request of any job that names one.
  const { job, context, deps, host, check, pr } = run;
  if (!job.prNumber || !pr) throw new UserError("an explain job needs a pull request number");
  const checkout = await host.checkout(job.headSha, { alsoFetch: [pr.baseSha] });
  try {
    const { markdown } = await deps.explain({
      repoDir: checkout.dir,
      repository: `${job.repo.owner}/${job.repo.name}`.toLowerCase(),
      base: pr.baseSha,
      head: job.headSha,
      description: [pr.title, pr.body].join("\n\n"),
      context,
    });
    context.signal.throwIfAborted();
    const key = `explain:${job.headSha}${job.commentId ? `:c${job.commentId}` : ""}`;
    const reply = await host.comment(job.prNumber, explainReply(markdown, job.requestedBy), key);
    await check.conclude("success", "Change explained and audited", "the audit is in a comment:", {
      link: { label: "the reply", url: reply.url },
    });
    return { status: "explained" };
  } finally {
    await checkout.dispose();
  }
}
