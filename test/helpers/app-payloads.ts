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
