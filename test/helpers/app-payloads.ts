import { examplePayload } from "../github/payloads.js";
import { INSTALLATION, REPO } from "../ops/bank-app.js";

/* Webhook bodies for the BankApp's repository (octo/bank), from GitHub's own examples. */

type Payload = Record<string, Record<string, unknown>>;

/** A failed check run as GitHub delivers it; `pull` names a same-repository pull request (a fork's names none). */
export function failedCheckRun(sha: string, headBranch: string | null, id: number, pull?: number): string {
  const p = examplePayload<Payload>(
    "check_run",
    (x) => x.action === "completed" && (x.check_run as { conclusion: string }).conclusion === "failure",
  );
  const pulls =
    pull === undefined
      ? []
      : [
          {
            number: pull,
            head: { repo: { url: `https://api.github.example/repos/${REPO.owner}/${REPO.name}` } },
          },
        ];
  p.check_run = {
    ...p.check_run,
    id,
    head_sha: sha,
    pull_requests: pulls,
    app: { id: 999 },
    check_suite: {
      ...(p.check_run!.check_suite as object),
      head_branch: headBranch,
      head_sha: sha,
      pull_requests: pulls,
    },
  };
  const repository = {
    ...p.repository,
    name: REPO.name,
    full_name: `${REPO.owner}/${REPO.name}`,
    owner: { login: REPO.owner },
  };
  return JSON.stringify({ ...p, repository, installation: { id: INSTALLATION } });
}

/** A failed workflow run as GitHub delivers it; `pull` names a same-repository pull request. */
export function failedWorkflowRun(sha: string, headBranch: string, id: number, pull?: number): string {
  const p = examplePayload<Payload>("workflow_run", (x) => x.action === "completed");
  const repository = bankRepository(p);
  const pulls =
    pull === undefined
      ? []
      : [{ number: pull, head: { ref: headBranch, sha, repo: { url: repository.url, name: REPO.name } } }];
  p.workflow_run = {
    ...p.workflow_run,
    id,
    head_sha: sha,
    head_branch: headBranch,
    conclusion: "failure",
    head_repository: repository,
    pull_requests: pulls,
  };
  return JSON.stringify({ ...p, repository, installation: { id: INSTALLATION } });
}

/** A review of pull request `pull` (from `head`, a branch of octo/bank) by `login`, as `pull_request_review.submitted`. */
export function prReview(
  pull: number,
  head: string,
  state: "changes_requested" | "commented" | "approved",
  body: string,
  login: string,
  id: number,
): string {
  const p = examplePayload<Payload>("pull_request_review", (x) => x.action === "submitted");
  const repository = bankRepository(p);
  p.review = {
    ...p.review,
    id,
    state,
    body,
    user: { ...(p.review!.user as object), login, type: "User" },
    submitted_at: new Date().toISOString(),
  };
  const pr = p.pull_request as { head: Record<string, unknown> };
  p.pull_request = {
    ...p.pull_request,
    number: pull,
    head: { ...pr.head, ref: head, repo: repository },
  };
  return JSON.stringify({ ...p, repository, installation: { id: INSTALLATION } });
}

/** The example's repository as octo/bank. */
function bankRepository(p: Payload) {
  return {
    ...p.repository,
    name: REPO.name,
    full_name: `${REPO.owner}/${REPO.name}`,
    owner: { login: REPO.owner },
    url: `https://api.github.example/repos/${REPO.owner}/${REPO.name}`,
  };
}

/** A comment on pull request `pull` by `login`, as GitHub delivers `issue_comment.created`. */
export function prComment(pull: number, body: string, login: string, id: number): string {
  const p = examplePayload<Payload>("issue_comment", (x) => x.action === "created");
  p.comment = {
    ...p.comment,
    id,
    body,
    user: { ...(p.comment!.user as object), login, type: "User" },
    created_at: new Date().toISOString(),
  };
  p.issue = {
    ...p.issue,
    number: pull,
    pull_request: { url: `https://api.github.example/repos/${REPO.owner}/${REPO.name}/pulls/${pull}` },
  };
  const repository = {
    ...p.repository,
    name: REPO.name,
    full_name: `${REPO.owner}/${REPO.name}`,
    owner: { login: REPO.owner },
  };
  return JSON.stringify({ ...p, repository, installation: { id: INSTALLATION } });
}
