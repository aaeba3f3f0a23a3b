// Hostile case (issue 23, point 1): a fork's failed check run was published into the base
// repository. GitHub sends a fork's check_run with `pull_requests: []`, no head repository,
// and `check_suite.head_branch` naming the fork's branch ("main", the base's default branch
// too); the check_run and workflow_run of one failure share one job, so whichever arrived
// first decided, and absence read as "same repository". Now the worker asks GitHub whether
// the head is the repository's own (a branch's tip, an open same-repository PR's head), and
// anything unproven is a fork's.
import { randomUUID } from "node:crypto";
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HypofixJob } from "../../src/queue/job.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { deliveryHeaders, examplePayload } from "../github/payloads.js";
import { git } from "../helpers/git.js";
import { serveOnLoopback, until, type Running } from "../helpers/hypofix-process.js";
import { BankApp, INSTALLATION, REPO } from "../ops/bank-app.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "fork-e2e-secret";
const FORK = { owner: "eve", name: REPO.name };

type Payload = Record<string, Record<string, unknown>>;

const repository = (p: Payload) => ({
  ...p.repository,
  name: REPO.name,
  full_name: `${REPO.owner}/${REPO.name}`,
  owner: { login: REPO.owner },
});

/** A failed check run as GitHub delivers it for a fork's head: no pull request, no head repository. */
function checkRunBody(sha: string, headBranch: string | null, id: number): string {
  const p = examplePayload<Payload>(
    "check_run",
    (x) => x.action === "completed" && (x.check_run as { conclusion: string }).conclusion === "failure",
  );
  p.check_run = {
    ...p.check_run,
    id,
    head_sha: sha,
    pull_requests: [],
    app: { id: 999 },
    check_suite: {
      ...(p.check_run!.check_suite as object),
      head_branch: headBranch,
      head_sha: sha,
      pull_requests: [],
    },
  };
  return JSON.stringify({ ...p, repository: repository(p), installation: { id: INSTALLATION } });
}

/** The same failure's workflow run: it names the fork as the head repository. */
function workflowRunBody(sha: string, headBranch: string | null, id: number): string {
  const p = examplePayload<Payload>("workflow_run", (x) => x.action === "completed");
  const head = p.workflow_run!.head_repository as Record<string, unknown>;
  p.workflow_run = {
    ...p.workflow_run,
    id,
    head_sha: sha,
    head_branch: headBranch,
    conclusion: "failure",
    pull_requests: [],
    head_repository: {
      ...head,
      name: FORK.name,
      full_name: `${FORK.owner}/${FORK.name}`,
      owner: { login: FORK.owner },
    },
  };
  return JSON.stringify({ ...p, repository: repository(p), installation: { id: INSTALLATION } });
}

describe("a fork's failed check run is never published, whichever event arrives first", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const queueName = `hypofix-fork-e2e-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  /** Fork heads with an open pull request eve:main → octo:main each (numbered). */
  const forkPulls = new Map<string, number>();
  let served: Running;
  let port = 0;

  /** A commit with the failing tree (a fork's, unless a base branch is set to it). */
  const failingCommit = (message: string) =>
    git(app.repos[0]!.origin, "commit-tree", `${app.sha}^{tree}`, "-p", app.sha, "-m", message);

  /** A fork's head: fetchable from the base repository as its pull request's ref, on no branch of it. */
  const forkHead = (pull: number) => {
    const sha = failingCommit(`eve's change for #${pull}`);
    git(app.repos[0]!.origin, "update-ref", `refs/pull/${pull}/head`, sha);
    forkPulls.set(sha, pull);
    return sha;
  };

  beforeAll(async () => {
    app.intercept = (r: Recorded) => {
      const checked = checks.route(r);
      if (checked) return checked;
      const associated = /^\/repos\/octo\/bank\/commits\/([0-9a-f]{40})\/pulls/.exec(r.path);
      const pull = associated && forkPulls.get(associated[1]!);
      if (r.method === "GET" && pull) {
        const head = { sha: associated[1], ref: "main", repo: { full_name: `${FORK.owner}/${FORK.name}` } };
        return { status: 200, body: [{ number: pull, state: "open", head, base: { ref: "main" } }] };
      }
      return undefined;
    };
    await app.start();
    ({ served, port } = await serveOnLoopback(
      [],
      app.env({ WEBHOOK_SECRET: SECRET, REDIS_URL, HYPOFIX_QUEUE_NAME: queueName }),
    ));
  }, 120_000);

  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await queue.queue.obliterate({ force: true });
    await queue.close();
    await app.close();
  });

  const deliver = async (event: string, body: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      headers: deliveryHeaders(event, body, SECRET),
      body,
    });
    expect(res.status, `${event} delivery`).toBe(200);
  };

  const jobsFor = async (sha: string): Promise<Job<HypofixJob>[]> =>
    (
      await queue.queue.getJobs(["waiting", "active", "delayed", "prioritized", "completed", "failed"])
    ).filter((j) => j.data.headSha === sha);

  /** Waits for the one job of `sha` and returns what it ended with. */
  const outcome = async (sha: string): Promise<unknown> => {
    await until(
      "the job to finish",
      async () => {
        const [job] = await jobsFor(sha);
        return job !== undefined && (await job.isCompleted());
      },
      180_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- hypofix serve ---\n${served.output()}`);
    });
    const jobs = await jobsFor(sha);
    expect(jobs, "the two events of one failure make one job").toHaveLength(1);
    return jobs[0]!.returnvalue;
  };

  const writesToBase = (since: number) =>
    app.github.requests
      .slice(since)
      .filter((r) => r.method !== "GET" && /^\/repos\/octo\/bank\/(git\/|pulls)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);

  const hypofixBranches = () =>
    git(app.repos[0]!.origin, "for-each-ref", "--format=%(refname)", "refs/heads/hypofix");

  const scenarios: { name: string; order: ("check_run" | "workflow_run")[]; headBranch: string | null }[] = [
    { name: "check_run first, then workflow_run", order: ["check_run", "workflow_run"], headBranch: "main" },
    { name: "workflow_run first, then check_run", order: ["workflow_run", "check_run"], headBranch: "main" },
    { name: "check_run alone, head_branch null", order: ["check_run"], headBranch: null },
  ];
  scenarios.forEach(({ name, order, headBranch }, i) => {
    it(`${name}: fixed in the check run at most; no ref, commit or pull request in the base`, async () => {
      const sha = forkHead(7 + i);
      const before = app.github.requests.length;
      for (const event of order) {
        await deliver(
          event,
          event === "check_run"
            ? checkRunBody(sha, headBranch, 9000 + i)
            : workflowRunBody(sha, headBranch, 8000 + i),
        );
      }
      // The pipeline found a validated fix: only the head's owner keeps it from being published.
      expect(await outcome(sha)).toEqual({ status: "fixed" });
      expect(writesToBase(before)).toEqual([]);
      expect(hypofixBranches()).toBe("");
      const summaries = checks.states.filter((s) => s.head_sha === sha).map((s) => s.output?.summary ?? "");
      expect(summaries.some((s) => s.includes("a fork's head"))).toBe(true);
      expect(checks.sequence(sha).at(-1)).toBe("completed/success: Hypofix: fixed");
    }, 240_000);
  });

  it("the other side: the same check run for the tip of a base branch opens the fix pull request", async () => {
    const sha = failingCommit("a writer's failing commit");
    git(app.repos[0]!.origin, "branch", "feature", sha);
    await deliver("check_run", checkRunBody(sha, "feature", 9100));
    expect(await outcome(sha)).toMatchObject({ status: "fixed", publish: "opened" });
    expect(
      git(app.repos[0]!.origin, "for-each-ref", "--format=%(refname)", "refs/heads/hypofix/feature"),
    ).toBe("refs/heads/hypofix/feature");
    expect(git(app.repos[0]!.origin, "rev-parse", "refs/heads/hypofix/feature^")).toBe(sha);
  }, 240_000);
});
