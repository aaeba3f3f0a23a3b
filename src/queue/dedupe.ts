import type { Delivered } from "../outbound/delivery.js";
import { fixBranch } from "../outbound/publish.js";
import type { Result } from "../result.js";
import type { Answer } from "./answered.js";
import type { JobRun } from "./job-run.js";

/*
 * Never a second review or fix pull request for a failure already answered in the repository:
 * the same failing tests with the same errors (result.failureSignature), e.g. a new commit
 * that did not change the failure. The same failing commit again (a retry) and the fix pull
 * request the answer already is (updated for the branch's new commit) are not second answers;
 * an explicit `/fix` always gets one. Redis trouble never stops a delivery.
 */

const repository = (run: JobRun) => `${run.job.repo.owner}/${run.job.repo.name}`.toLowerCase();

/** The earlier answer to this run's failure that makes delivering it again a second one, if any. */
export async function earlierAnswer(
  run: JobRun,
  result: Result,
  baseBranch: () => Promise<string>,
): Promise<Answer | undefined> {
  const { deps, job, context } = run;
  if (!deps.answered || job.trigger !== "ci" || result.status !== "fixed" || !result.failureSignature)
    return undefined;
  try {
    const answer = await deps.answered.find(repository(run), result.failureSignature);
    if (!answer || answer.headSha === job.headSha) return undefined;
    if (answer.kind === "pull-request" && answer.branch === fixBranch(await baseBranch())) return undefined;
    return answer;
  } catch (err) {
    context.log.warn({ err: String(err) }, "could not look up answered failures");
    return undefined;
  }
}

/** Records what answered this run's failure: its review, or its fix pull request. */
export async function rememberAnswer(run: JobRun, result: Result, delivered: Delivered): Promise<void> {
  const { deps, job, context } = run;
  if (!deps.answered || !result.failureSignature) return;
  const { review, pullRequest } = delivered;
  const answer: Answer | undefined = review
    ? { kind: "review", number: review.number, url: review.url, headSha: job.headSha }
    : pullRequest
      ? {
          kind: "pull-request",
          number: pullRequest.number,
          url: pullRequest.url,
          headSha: job.headSha,
          branch: pullRequest.branch,
        }
      : undefined;
  if (!answer) return;
  await deps.answered
    .remember(repository(run), result.failureSignature, answer)
    .catch((err: unknown) => context.log.warn({ err: String(err) }, "could not record the answered failure"));
}

/** The check run's reason for not answering again (plain text). */
export function answeredReason(answer: Answer, signature: string): string {
  const where = answer.kind === "review" ? `the review on #${answer.number}` : `#${answer.number}`;
  return `the same failure (the same failing tests and errors, signature ${signature.slice(0, 12)}) already got a validated fix in ${where}, for commit ${answer.headSha.slice(0, 12)}; Hypofix posts no second suggestion or pull request for it (/fix asks for one anyway)`;
}
