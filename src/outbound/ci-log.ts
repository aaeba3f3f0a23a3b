import { ciLogFacts, type Language } from "../lang/registry.js";
import type { CiLogFacts } from "../lang/types.js";
import type { GitHubClient, RepoRef } from "./publish.js";

/**
 * What the failed jobs' logs of a run say about the failing tests, read by the repository's
 * language (`language`), or when it is not known yet, by the first registered language that
 * finds a failing test in them (the default one first).
 */
export async function readCiFailure(
  octokit: GitHubClient,
  repo: RepoRef,
  ids: { checkRunId?: number; workflowRunId?: number },
  language?: Language,
): Promise<CiLogFacts> {
  return ciLogFacts(await fetchFailedJobLogs(octokit, repo, ids), language);
}

/**
 * The log text of the failed Actions jobs of a run. A check run created by
 * GitHub Actions has the id of its job; for a workflow run we list its jobs.
 */
export async function fetchFailedJobLogs(
  octokit: GitHubClient,
  repo: RepoRef,
  ids: { checkRunId?: number; workflowRunId?: number },
): Promise<string> {
  let jobIds: number[] = [];
  if (ids.checkRunId !== undefined) jobIds = [ids.checkRunId];
  else if (ids.workflowRunId !== undefined) {
    const jobs = await octokit.paginate(octokit.rest.actions.listJobsForWorkflowRun, {
      ...repo,
      run_id: ids.workflowRunId,
      filter: "latest",
      per_page: 100,
    });
    jobIds = jobs.filter((j) => j.conclusion === "failure" || j.conclusion === "timed_out").map((j) => j.id);
  }
  const logs = await Promise.all(
    jobIds.map(async (job_id) => {
      const { data } = await octokit.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id });
      return typeof data === "string" ? data : String(data);
    }),
  );
  return logs.join("\n");
}
