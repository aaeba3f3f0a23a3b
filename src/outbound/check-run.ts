import { fitBody, type CheckConclusion, type GitHubClient, type RepoRef } from "./publish.js";

/** The one check run a job keeps on its head commit, named like the App. */
export const CHECK_RUN_NAME = "Hypofix";

export interface CheckRunOutput {
  title: string;
  /** Markdown, already made inert by src/report/. */
  summary: string;
}

export interface CheckRunConclusion extends CheckRunOutput {
  conclusion: CheckConclusion | "cancelled";
  detailsUrl?: string;
}

export interface FoundCheckRun {
  id: number;
  status: "queued" | "in_progress" | "completed" | string;
}

function output({ title, summary }: CheckRunOutput) {
  return { title: title.slice(0, 255), summary: fitBody(summary) };
}

/** Starts the job's check run, `in_progress`; `externalId` finds it again on a retry or after a final failure. */
export async function createCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
  first: CheckRunOutput,
): Promise<number> {
  const { data } = await octokit.rest.checks.create({
    ...repo,
    name: CHECK_RUN_NAME,
    head_sha: headSha,
    external_id: externalId,
    status: "in_progress",
    started_at: new Date().toISOString(),
    output: output(first),
  });
  return data.id;
}

/** New summary of a running check run. */
export async function updateCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  id: number,
  progress: CheckRunOutput,
): Promise<void> {
  await octokit.rest.checks.update({ ...repo, check_run_id: id, output: output(progress) });
}

/** Concludes a check run: GitHub marks it completed. */
export async function concludeCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  id: number,
  end: CheckRunConclusion,
): Promise<void> {
  await octokit.rest.checks.update({
    ...repo,
    check_run_id: id,
    status: "completed",
    conclusion: end.conclusion,
    completed_at: new Date().toISOString(),
    ...(end.detailsUrl ? { details_url: end.detailsUrl } : {}),
    output: output(end),
  });
}

/** The job's own check run on a commit, by its external id (the newest when a job was started twice). */
export async function findCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
): Promise<FoundCheckRun | undefined> {
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: headSha,
    check_name: CHECK_RUN_NAME,
    filter: "all",
    per_page: 100,
  });
  const own = data.check_runs.filter((run) => run.external_id === externalId);
  const newest = own.sort((a, b) => b.id - a.id)[0];
  return newest ? { id: newest.id, status: newest.status } : undefined;
}
