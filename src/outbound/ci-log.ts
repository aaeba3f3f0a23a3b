import type { GitHubClient, RepoRef } from "./publish.js";

/** What a CI log tells us about a pytest failure. */
export interface CiLogFacts {
  /** pytest node ids reported as FAILED or ERROR, in order, deduplicated. */
  failingTests: string[];
  /** The lines around the failure, for the debugging prompt and the report. */
  excerpt: string;
}

// GitHub Actions prefixes each line with an ISO timestamp.
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// Styled output may carry ANSI colour codes.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const SUMMARY_LINE = /^(FAILED|ERROR) (\S+?\.py(?:::\S+)?)(?: - .*)?$/;

export function parsePytestLog(log: string, maxExcerptLines = 60): CiLogFacts {
  const lines = log.split(/\r?\n/).map((l) => l.replace(TIMESTAMP, "").replace(ANSI, ""));
  const failing: string[] = [];
  for (const line of lines) {
    const match = SUMMARY_LINE.exec(line.trim());
    if (match?.[2] && !failing.includes(match[2])) failing.push(match[2]);
  }
  const start = lines.findIndex((l) => /^=+ (FAILURES|ERRORS) =+$/.test(l.trim()));
  const from = start >= 0 ? start : Math.max(0, lines.findIndex((l) => SUMMARY_LINE.test(l.trim())) - 10);
  const window = lines.slice(from, from + maxExcerptLines);
  const cut = lines.length - from > maxExcerptLines ? ["[... log cut ...]"] : [];
  return {
    failingTests: failing,
    excerpt: failing.length || start >= 0 ? [...window, ...cut].join("\n") : "",
  };
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
