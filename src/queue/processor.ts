import { patchedFiles } from "../github/outbound/patched-files.js";
import type { RepoHost } from "../github/outbound/repo-host.js";
import { explainReply } from "../report/explain.js";
import { blockedNote, proposedNote } from "../report/fix-notes.js";
import { text } from "../report/inert.js";
import { loadRepoConfig, type RepoConfig } from "../repo-config.js";
import type { Result } from "../result.js";
import { UserError } from "../errors.js";
import { greenJob } from "./green.js";
import type { HypofixJob } from "./job.js";
import type { JobContext, JobProcessor } from "./worker.js";

export interface FixRequest {
  repoDir: string;
  tests: string[];
  headSha: string;
  repoConfig: RepoConfig;
  /** The CI log's failure excerpt, for the debugging prompt and the report. */
  ciLog?: string;
  /** owner/name: environments are cached per repository. */
  repository?: string;
  /** False for a fork's head: its setup never runs with network (the environment phase says so). */
  allowSetupNetwork?: boolean;
  context: JobContext;
}

export interface ExplainRequest {
  repoDir: string;
  base: string;
  head: string;
  /** Pull request title and description: the explanation whose claims are audited. */
  description: string;
  context: JobContext;
}

/** What the worker needs from the rest of Hypofix; the real wiring is in src/compose.ts. */
export interface ProcessorDeps {
  /** GitHub for one repository, through the job's installation. */
  connect(installationId: number, repo: { owner: string; repo: string }): Promise<RepoHost>;
  fix(request: FixRequest): Promise<{ result: Result; report: string; patch: string }>;
  explain(request: ExplainRequest): Promise<{ markdown: string }>;
}

const CONCLUSION: Record<Result["status"], "success" | "neutral" | "failure"> = {
  fixed: "success",
  "no-fix": "neutral",
  "not-reproduced": "neutral",
  flaky: "neutral",
  error: "failure",
};

/** Turns a queued job into a fix pull request, a comment, or an /explain reply. */
export function createJobProcessor(deps: ProcessorDeps): JobProcessor {
  return async (job, context) => {
    const host = await deps.connect(job.installationId, { owner: job.repo.owner, repo: job.repo.name });
    try {
      if (job.kind === "ci-green") return await greenJob(host, job);
      const headSha = job.headSha ?? (await host.pullRequest(prNumberOf(job))).headSha;
      const run: JobRun = { job: { ...job, headSha }, context, deps, host };
      return await (job.kind === "explain" ? explainJob(run) : fixJob(run));
    } finally {
      await host
        .dispose()
        .catch((err: unknown) => context.log.warn({ err: String(err) }, "could not revoke the token"));
    }
  };
}

function prNumberOf(job: HypofixJob): number {
  if (job.prNumber === undefined) throw new UserError("a command job needs a pull request number");
  return job.prNumber;
}

/** A job whose head commit is known. */
type ResolvedJob = HypofixJob & { headSha: string };

/** Everything one job's steps share. */
interface JobRun {
  job: ResolvedJob;
  context: JobContext;
  deps: ProcessorDeps;
  host: RepoHost;
}

async function fixJob(run: JobRun): Promise<Record<string, unknown>> {
  const { job, context, deps, host } = run;
  let tests = job.tests ?? [];
  let ciLog: string | undefined;
  if (job.checkRunId !== undefined || job.workflowRunId !== undefined) {
    try {
      const facts = await host.ciFailure(job);
      if (tests.length === 0) tests = facts.failingTests.filter((t) => t.includes("::"));
      if (facts.excerpt) ciLog = facts.excerpt;
    } catch (err) {
      // Logs are a hint: without them the suite is run to find the failing tests.
      context.log.warn({ err: String(err) }, "could not read the CI logs");
    }
  }
  const checkout = await host.checkout(job.headSha);
  try {
    let repoConfig: RepoConfig;
    try {
      repoConfig = await loadRepoConfig(checkout.dir);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      await host.reportCheckRun(job.headSha, {
        conclusion: "action_required",
        title: "Hypofix configuration is invalid",
        summary: err.oneLine(),
      });
      return { status: "bad-config" };
    }
    const outcome = await deps.fix({
      repoDir: checkout.dir,
      tests,
      headSha: job.headSha,
      repoConfig,
      context,
      repository: `${job.repo.owner}/${job.repo.name}`.toLowerCase(),
      ...(ciLog ? { ciLog } : {}),
    });
    const { result } = outcome;
    const title = `Hypofix: ${result.status}`;
    // Keyed comments are posted once: a retry finds its earlier one. A new /fix gets a new report;
    // the pointer to our fix PR is one comment per PR, however often the PR is updated.
    const runKey = `${job.headSha}${job.commentId ? `:c${job.commentId}` : ""}`;
    if (result.status === "fixed" && outcome.patch && repoConfig.mode === "pull-request") {
      const rules = { sourcePaths: repoConfig.source_paths, ignorePaths: repoConfig.ignore_paths };
      const pr = await host.publishFix({
        baseSha: job.headSha,
        baseTree: await checkout.tree(),
        baseBranch: await fixBase(host, job),
        files: await patchedFiles(checkout, outcome.patch, rules),
        title: fixTitle(result),
        body: outcome.report,
      });
      if (pr.action !== "blocked") {
        await host.reportCheckRun(job.headSha, {
          conclusion: "success",
          title: `Validated fix proposed in #${pr.number}`,
          summary: `${text(result.reason)}\n\n${pr.url}`,
          detailsUrl: pr.url,
        });
        if (job.prNumber) await host.comment(job.prNumber, proposedNote(pr.number), `fix:pr${pr.number}`);
        return { status: result.status, pullRequest: pr.number, publish: pr.action };
      }
      context.log.warn({ branch: pr.branch }, pr.reason);
      if (pr.pullRequest) {
        await host.comment(
          pr.pullRequest.number,
          blockedNote(pr.branch, outcome.report),
          `blocked:${runKey}`,
        );
      }
    }
    if (job.prNumber) await host.comment(job.prNumber, outcome.report, `report:${runKey}`);
    await host.reportCheckRun(job.headSha, {
      conclusion: CONCLUSION[result.status],
      title,
      summary: outcome.report,
    });
    return { status: result.status };
  } finally {
    await checkout.dispose();
  }
}

function fixTitle(result: Result): string {
  const where = result.localization[0];
  const tests =
    result.failingTests.length === 1 ? result.failingTests[0] : `${result.failingTests.length} tests`;
  return where ? `Fix ${where.function} (${where.file}) failing ${tests}` : `Fix failing ${tests}`;
}

/** A fix targets the failing PR's branch when it lives in this repository, else the branch the run was on. */
async function fixBase(host: RepoHost, job: ResolvedJob): Promise<string> {
  if (job.prNumber) {
    const pr = await host.pullRequest(job.prNumber);
    return pr.sameRepoHeadRef ?? pr.baseRef;
  }
  return job.headBranch ?? (await host.repository()).defaultBranch;
}

async function explainJob(run: JobRun): Promise<Record<string, unknown>> {
  const { job, context, deps, host } = run;
  if (!job.prNumber) throw new UserError("an explain job needs a pull request number");
  const pr = await host.pullRequest(job.prNumber);
  const checkout = await host.checkout(job.headSha, { alsoFetch: [pr.baseSha] });
  try {
    const { markdown } = await deps.explain({
      repoDir: checkout.dir,
      base: pr.baseSha,
      head: job.headSha,
      description: [pr.title, pr.body].join("\n\n"),
      context,
    });
    const key = `explain:${job.headSha}${job.commentId ? `:c${job.commentId}` : ""}`;
    await host.comment(job.prNumber, explainReply(markdown, job.requestedBy), key);
    return { status: "explained" };
  } finally {
    await checkout.dispose();
  }
}
