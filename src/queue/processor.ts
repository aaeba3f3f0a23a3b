import { applyPatch, parsePatch } from "diff";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { checkoutCommit } from "../github/checkout.js";
import { fetchFailedJobLogs, parsePytestLog } from "../github/ci-log.js";
import {
  comment,
  openFixPullRequest,
  reportCheckRun,
  type GitHubClient,
  type RepoRef,
} from "../github/publish.js";
import { loadRepoConfig, type RepoConfig } from "../repo-config.js";
import type { Result } from "../result.js";
import { UserError } from "../errors.js";
import type { HypofixJob } from "./job.js";
import type { JobContext, JobProcessor } from "./worker.js";

export interface FixRequest {
  repoDir: string;
  tests: string[];
  headSha: string;
  repoConfig: RepoConfig;
  /** The CI log's failure excerpt, for the debugging prompt and the report. */
  ciLog?: string;
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

/** What the worker needs from the rest of Hypofix; the real wiring is in ./wiring.ts. */
export interface ProcessorDeps {
  /** An installation-scoped client, and a read-only token for fetching the repository (it only ever reaches git). */
  auth(installationId: number, repo: RepoRef): Promise<{ octokit: GitHubClient; token: string }>;
  fix(request: FixRequest): Promise<{ result: Result; report: string; patch: string }>;
  explain(request: ExplainRequest): Promise<{ markdown: string }>;
}

/** New contents of every file a unified diff changes, read from the checkout it applies to. */
export async function patchedFiles(repoDir: string, patch: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const filePatch of parsePatch(patch)) {
    const path = (filePatch.newFileName ?? filePatch.oldFileName ?? "").replace(/^b\//, "");
    if (!path || path === "/dev/null") continue;
    const before = await readFile(join(repoDir, path), "utf8");
    const after = applyPatch(before, filePatch);
    if (after === false) throw new Error(`the patch does not apply to ${path}`);
    files[path] = after;
  }
  return files;
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
    const repo: RepoRef = { owner: job.repo.owner, repo: job.repo.name };
    const { octokit, token } = await deps.auth(job.installationId, repo);
    const { data: meta } = await octokit.rest.repos.get({ ...repo });
    const run: JobRun = {
      job,
      context,
      deps,
      octokit,
      repo,
      token,
      cloneUrl: meta.clone_url,
      defaultBranch: meta.default_branch,
    };
    return job.kind === "explain" ? explainJob(run) : fixJob(run);
  };
}

/** Everything one job's steps share. */
interface JobRun {
  job: HypofixJob;
  context: JobContext;
  deps: ProcessorDeps;
  octokit: GitHubClient;
  repo: RepoRef;
  cloneUrl: string;
  token: string;
  defaultBranch: string;
}

async function fixJob(run: JobRun): Promise<Record<string, unknown>> {
  const { job, context, deps, octokit, repo, cloneUrl, token, defaultBranch } = run;
  let tests = job.tests ?? [];
  let ciLog: string | undefined;
  if (job.checkRunId !== undefined || job.workflowRunId !== undefined) {
    try {
      const facts = parsePytestLog(await fetchFailedJobLogs(octokit, repo, job));
      if (tests.length === 0) tests = facts.failingTests.filter((t) => t.includes("::"));
      if (facts.excerpt) ciLog = facts.excerpt;
    } catch (err) {
      // Logs are a hint: without them the suite is run to find the failing tests.
      context.log.warn({ err: String(err) }, "could not read the CI logs");
    }
  }
  const checkout = await checkoutCommit({ cloneUrl, sha: job.headSha, token });
  try {
    let repoConfig: RepoConfig;
    try {
      repoConfig = await loadRepoConfig(checkout.dir);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      await reportCheckRun(octokit, repo, job.headSha, {
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
      ...(ciLog ? { ciLog } : {}),
    });
    const { result } = outcome;
    const title = `Hypofix: ${result.status}`;
    if (result.status === "fixed" && outcome.patch && repoConfig.mode === "pull-request") {
      const base = await fixBase(octokit, repo, job, defaultBranch);
      const pr = await openFixPullRequest(octokit, repo, {
        baseSha: job.headSha,
        baseBranch: base,
        files: await patchedFiles(checkout.dir, outcome.patch),
        title: fixTitle(result),
        body: outcome.report,
      });
      await reportCheckRun(octokit, repo, job.headSha, {
        conclusion: "success",
        title: `Validated fix proposed in #${pr.number}`,
        summary: `${result.reason}\n\n${pr.url}`,
        detailsUrl: pr.url,
      });
      if (job.prNumber)
        await comment(octokit, repo, job.prNumber, `Hypofix proposes a validated fix: #${pr.number}`);
      return { status: result.status, pullRequest: pr.number };
    }
    if (job.prNumber) await comment(octokit, repo, job.prNumber, outcome.report);
    await reportCheckRun(octokit, repo, job.headSha, {
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
async function fixBase(octokit: GitHubClient, repo: RepoRef, job: HypofixJob, defaultBranch: string) {
  if (job.prNumber) {
    const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: job.prNumber });
    const sameRepo = pr.head.repo?.full_name === `${repo.owner}/${repo.repo}`;
    return sameRepo ? pr.head.ref : pr.base.ref;
  }
  return job.headBranch ?? defaultBranch;
}

async function explainJob(run: JobRun): Promise<Record<string, unknown>> {
  const { job, context, deps, octokit, repo, cloneUrl, token } = run;
  if (!job.prNumber) throw new UserError("an explain job needs a pull request number");
  const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: job.prNumber });
  const checkout = await checkoutCommit({ cloneUrl, sha: job.headSha, alsoFetch: [pr.base.sha], token });
  try {
    const { markdown } = await deps.explain({
      repoDir: checkout.dir,
      base: pr.base.sha,
      head: job.headSha,
      description: [pr.title, pr.body ?? ""].join("\n\n"),
      context,
    });
    const reply = job.requestedBy ? `@${job.requestedBy} ${markdown}` : markdown;
    await comment(octokit, repo, job.prNumber, reply);
    return { status: "explained" };
  } finally {
    await checkout.dispose();
  }
}
