import { describe, expect, it } from "vitest";
import {
  headMovedByPush,
  headMovedBySynchronize,
  isStale,
  findCommand,
  parseCommand,
  triggerFromCheckRun,
  triggerFromReview,
  triggerFromWorkflowRun,
} from "../../src/inbound/triggers.js";
import type { HypofixJob } from "../../src/queue/job.js";
import { examplePayload } from "./payloads.js";

type Payload = Parameters<typeof triggerFromCheckRun>[0] & Record<string, unknown>;
type RunPayload = Parameters<typeof triggerFromWorkflowRun>[0] & Record<string, unknown>;
type PushPayload = Parameters<typeof headMovedByPush>[0] & Record<string, unknown>;

const completedCheckRun = (conclusion: string) =>
  examplePayload<Payload>(
    "check_run",
    (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === conclusion,
  );
const helloWorld = { owner: "Codertocat", name: "Hello-World" };

describe("triggerFromCheckRun", () => {
  it("turns a failed check run into a ci-failure job for its sha, pull request and head repository", () => {
    const payload = { ...completedCheckRun("failure"), installation: { id: 99 } };
    expect(triggerFromCheckRun(payload)).toEqual({
      job: {
        kind: "ci-failure",
        installationId: 99,
        repo: helloWorld,
        headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        checkRunId: payload.check_run.id,
        headBranch: "changes",
        headRepo: helloWorld,
        prNumber: 2,
        trigger: "ci",
      },
    });
  });

  it("turns a success on a same-repository branch into a ci-green job, and nothing for a fork's", () => {
    const ok = { ...completedCheckRun("success"), installation: { id: 1 } };
    expect(triggerFromCheckRun(ok)).toEqual({
      job: {
        kind: "ci-green",
        installationId: 1,
        repo: helloWorld,
        headSha: ok.check_run.head_sha,
        headBranch: "changes",
        headRepo: helloWorld,
        trigger: "ci",
      },
    });
    ok.check_run.pull_requests[0]!.head!.repo!.url = "https://api.github.com/repos/someone/Hello-World";
    expect(triggerFromCheckRun(ok)).toEqual({
      ignored: "success on a head that is not a branch of this repository",
    });
  });

  it("ignores its own check runs (whatever their conclusion), success on its own branches and payloads without an installation", () => {
    for (const conclusion of ["failure", "success"]) {
      const own = { ...completedCheckRun(conclusion), installation: { id: 1 } };
      expect(triggerFromCheckRun(own, own.check_run.app!.id)).toEqual({
        ignored: "check run is Hypofix's own",
      });
    }
    const greenOwnBranch = { ...completedCheckRun("success"), installation: { id: 1 } };
    greenOwnBranch.check_run.check_suite!.head_branch = "hypofix/fix-ec26c3e57ca3";
    expect(triggerFromCheckRun(greenOwnBranch)).toEqual({
      ignored: "branch hypofix/fix-ec26c3e57ca3 is Hypofix's own",
    });
    expect(triggerFromCheckRun(completedCheckRun("failure"))).toEqual({
      ignored: "payload has no installation",
    });
  });
});

describe("a failure on Hypofix's own branch", () => {
  it("is a ci-failure job for that branch (an iteration the worker checks is ours); a fork's branch of that name is not", () => {
    const own = { ...completedCheckRun("failure"), installation: { id: 1 } };
    own.check_run.check_suite!.head_branch = "hypofix/main";
    const trigger = triggerFromCheckRun(own);
    expect(trigger).toMatchObject({ job: { kind: "ci-failure", headBranch: "hypofix/main" } });
    const fork = structuredClone(own);
    fork.check_run.pull_requests[0]!.head!.repo!.url = "https://api.github.com/repos/eve/Hello-World";
    expect(triggerFromCheckRun(fork)).toEqual({ ignored: "branch hypofix/main is Hypofix's own" });
  });
});

type ReviewPayload = Parameters<typeof triggerFromReview>[0] & Record<string, unknown>;

describe("triggerFromReview", () => {
  const review = (state: string, headRef: string, headRepo = "Codertocat/Hello-World") => {
    const p = examplePayload<ReviewPayload>("pull_request_review", (x) => x.action === "submitted");
    p.review.state = state;
    p.review.body = "  Fix it in the caller instead.  ";
    p.pull_request.head.ref = headRef;
    p.pull_request.head.repo = { full_name: headRepo };
    return { ...p, installation: { id: 5 } };
  };

  it("turns changes requested on a pull request from a hypofix/ branch into a command job with the body as the constraint", () => {
    const p = review("changes_requested", "hypofix/main");
    expect(triggerFromReview(p)).toEqual({
      job: {
        kind: "ci-failure",
        trigger: "command",
        installationId: 5,
        repo: helloWorld,
        prNumber: p.pull_request.number,
        requestedBy: p.review.user!.login,
        reviewId: p.review.id,
        commentedAt: p.review.submitted_at,
        instructions: "Fix it in the caller instead.",
      },
    });
  });

  it("ignores other reviews, other branches, a fork's hypofix/ branch and bots", () => {
    expect(triggerFromReview(review("commented", "hypofix/main"))).toEqual({
      ignored: "review is commented",
    });
    expect(triggerFromReview(review("approved", "hypofix/main"))).toEqual({ ignored: "review is approved" });
    expect(triggerFromReview(review("changes_requested", "feature"))).toEqual({
      ignored: "not a pull request from Hypofix's branches",
    });
    expect(triggerFromReview(review("changes_requested", "hypofix/main", "eve/Hello-World"))).toEqual({
      ignored: "not a pull request from Hypofix's branches",
    });
    const bot = review("changes_requested", "hypofix/main");
    bot.review.user = { login: "ci[bot]", type: "Bot" };
    expect(triggerFromReview(bot)).toEqual({ ignored: "review by a bot" });
  });
});

describe("triggerFromWorkflowRun", () => {
  const octoRepo = { owner: "octo-org", name: "octo-repo" };
  const withPr = () =>
    examplePayload<RunPayload>(
      "workflow_run",
      (p) =>
        p.action === "completed" && (p.workflow_run as { pull_requests: unknown[] }).pull_requests.length > 0,
    );
  // This example's head repository (octo-org/octo-repo) is not its repository (Codertocat/Hello-World): a fork.
  const fromFork = () =>
    examplePayload<RunPayload>(
      "workflow_run",
      (p) => p.action === "completed" && (p.repository as { name: string }).name === "Hello-World",
    );

  it("turns a failed run into a ci-failure job with its pull request and head repository", () => {
    const payload = withPr();
    payload.workflow_run.conclusion = "failure";
    expect(triggerFromWorkflowRun({ ...payload, installation: { id: 5 } })).toMatchObject({
      job: {
        kind: "ci-failure",
        installationId: 5,
        headSha: payload.workflow_run.head_sha,
        prNumber: 2,
        repo: octoRepo,
        headRepo: octoRepo,
        workflowRunId: payload.workflow_run.id,
      },
    });
  });

  it("marks a fork run's job with the fork as head repository (the worker never publishes it)", () => {
    const payload = fromFork();
    payload.workflow_run.conclusion = "failure";
    expect(triggerFromWorkflowRun({ ...payload, installation: { id: 5 } })).toMatchObject({
      job: { kind: "ci-failure", repo: helloWorld, headRepo: octoRepo, headBranch: "main" },
    });
  });

  it("gives ci-green for a success on its own repository's branch, nothing for a fork's", () => {
    expect(triggerFromWorkflowRun({ ...withPr(), installation: { id: 5 } })).toMatchObject({
      job: { kind: "ci-green", headBranch: "master", headRepo: octoRepo, repo: octoRepo },
    });
    const fork = fromFork();
    fork.workflow_run.conclusion = "success";
    expect(triggerFromWorkflowRun({ ...fork, installation: { id: 5 } })).toEqual({
      ignored: "success on a head that is not a branch of this repository",
    });
  });
});

describe("parseCommand", () => {
  it("finds a command alone on a line of a paragraph", () => {
    expect(parseCommand("/explain")).toBe("explain");
    expect(parseCommand("thanks!\n  /fix  \nand more")).toBe("fix");
    expect(parseCommand("Looks flaky.\n\n/fix")).toBe("fix");
    expect(parseCommand("/hypofix pause")).toBe("pause");
    expect(findCommand("/fix keep the public API as it is ")).toEqual({
      command: "fix",
      text: "keep the public API as it is",
    });
    expect(findCommand("/fix")).toEqual({ command: "fix" });
    expect(findCommand("/explain this")).toBeUndefined();
    expect(parseCommand("Back to normal.\n/hypofix  resume ")).toBe("resume");
  });

  it("ignores commands in code, quotes, lists, HTML and running text", () => {
    for (const body of [
      "please run /explain",
      "/explainer",
      "/hypofix",
      "/hypofix pause now",
      "> /hypofix pause",
      "/deploy",
      "```\n/fix\n```",
      "    /fix",
      "> /fix",
      "`/fix`",
      "- /fix",
      "<!--\n/fix\n-->",
    ]) {
      expect(parseCommand(body), body).toBeNull();
    }
  });
});

describe("stale heads", () => {
  const job: HypofixJob = {
    kind: "ci-failure",
    trigger: "ci",
    installationId: 1,
    repo: helloWorld,
    headSha: "a".repeat(40),
    headBranch: "changes",
    prNumber: 2,
  };

  it("reads a push to a branch (not a tag) and a pull request synchronize from real payloads", () => {
    const pushes = (ref: string) =>
      examplePayload<PushPayload>("push", (p) => p.ref === ref && p.deleted === false);
    expect(headMovedByPush(pushes("refs/tags/simple-tag"))).toBeUndefined();
    const push = pushes("refs/heads/master");
    expect(headMovedByPush(push)).toEqual({ repo: helloWorld, branch: "master", headSha: push.after });
    expect(headMovedByPush({ ...push, deleted: true, after: "0".repeat(40) })).toEqual({
      repo: helloWorld,
      branch: "master",
    });
    const sync = examplePayload<Parameters<typeof headMovedBySynchronize>[0] & Record<string, unknown>>(
      "pull_request",
      (p) => p.action === "synchronize",
    );
    expect(headMovedBySynchronize(sync)).toEqual({
      repo: helloWorld,
      prNumber: 2,
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
    });
  });

  it("calls a job stale only for another sha on the same branch or pull request of the same repository", () => {
    const b = "b".repeat(40);
    expect(isStale(job, { repo: helloWorld, branch: "changes", headSha: b })).toBe(true);
    expect(
      isStale(job, { repo: { owner: "codertocat", name: "hello-world" }, prNumber: 2, headSha: b }),
    ).toBe(true);
    expect(isStale(job, { repo: helloWorld, branch: "changes" })).toBe(true);
    expect(isStale(job, { repo: helloWorld, branch: "changes", headSha: job.headSha })).toBe(false);
    expect(isStale(job, { repo: helloWorld, branch: "main", headSha: b })).toBe(false);
    expect(isStale(job, { repo: helloWorld, prNumber: 3, headSha: b })).toBe(false);
    expect(
      isStale(job, { repo: { owner: "other", name: "Hello-World" }, branch: "changes", headSha: b }),
    ).toBe(false);
    // A fork's branch of the same name is not this repository's branch.
    const fork = { ...job, prNumber: undefined, headRepo: { owner: "someone", name: "Hello-World" } };
    expect(isStale(fork, { repo: helloWorld, branch: "changes", headSha: b })).toBe(false);
    // A command whose head the worker resolves has no sha to be stale yet.
    const command = { ...job, trigger: "command" as const, headSha: undefined, commentId: 1 };
    expect(isStale(command, { repo: helloWorld, prNumber: 2, headSha: b })).toBe(false);
  });
});
