import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GitHubClient } from "../../src/outbound/publish.js";
import { createRepoHost } from "../../src/outbound/repo-host.js";
import type { HypofixJob } from "../../src/queue/job.js";
import {
  createFinalFailureHook,
  createJobProcessor,
  type FixRequest,
  type ProcessorDeps,
} from "../../src/queue/processor.js";
import { JobStopped } from "../../src/queue/worker.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import { FakeGitHub, type Recorded } from "../doubles/fake-github.js";
import { git, initOrigin } from "../helpers/git.js";

/**
 * The job flow in front of the pipeline, against GitHub's API as a loopback
 * server: who may run a command, which head, which configuration, and what the
 * check run says. The pipeline itself is the e2e test's (test/app/); here a
 * recorded stand-in shows what it was asked, or that it never ran.
 */
const log = pino({ level: "silent" });
const origin = mkdtempSync(join(tmpdir(), "hypofix-proc-origin-"));
let headSha = "";
let checks: FakeChecks;
let comments: Record<number, { body: string; user: { type: string } }[]>;
let configText: string | undefined;
let failChecks = false;
let github: FakeGitHub;
let baseUrl = "";
const fixCalls: FixRequest[] = [];
let onFix: (request: FixRequest) => void = () => {};
/** What the stand-in pipeline ends with; default: no fix. */
let fixOutcome: Awaited<ReturnType<ProcessorDeps["fix"]>> | undefined;

const PERMISSIONS: Record<string, string> = { writer: "write", reader: "read" };

beforeAll(async () => {
  writeFileSync(join(origin, "calc.py"), "def add(a, b):\n    return a - b\n");
  initOrigin(origin);
  git(origin, "add", ".");
  git(origin, "commit", "--quiet", "-m", "calc");
  headSha = git(origin, "rev-parse", "HEAD");
  github = new FakeGitHub((r: Recorded) => {
    if (failChecks && r.path.includes("check-runs")) return { status: 500, body: { message: "down" } };
    const checked = checks.route(r);
    if (checked) return checked;
    if (r.method === "GET" && /^\/repos\/octo\/calc\/contents\/\.github(\/|%2F)hypofix\.yml/.test(r.path)) {
      return configText === undefined ? undefined : { status: 200, body: configText };
    }
    const perm = /^\/repos\/octo\/calc\/collaborators\/(\w+)\/permission$/.exec(r.path);
    // Someone who is no collaborator at all gets GitHub's 404.
    if (perm)
      return PERMISSIONS[perm[1]!] ? { status: 200, body: { permission: PERMISSIONS[perm[1]!] } } : undefined;
    const issue = /^\/repos\/octo\/calc\/issues\/(\d+)\/comments/.exec(r.path);
    if (issue) {
      const list = (comments[Number(issue[1])] ??= []);
      if (r.method === "GET") return { status: 200, body: list };
      list.push({ body: (r.body as { body: string }).body, user: { type: "Bot" } });
      return { status: 201, body: { html_url: "https://github.example/c" } };
    }
    if (r.method === "POST" && /\/issues\/comments\/\d+\/reactions$/.test(r.path)) {
      return { status: 201, body: { id: 1 } };
    }
    if (r.method === "GET" && /^\/repos\/octo\/calc\/git\/commits\/[0-9a-f]{40}$/.test(r.path)) {
      return { status: 200, body: { sha: headSha, committer: { date: "2026-03-01T12:00:00Z" } } };
    }
    if (r.method === "GET" && /^\/repos\/octo\/calc\/pulls\/8$/.test(r.path)) {
      const head = { sha: headSha, ref: "feature", repo: { full_name: "octo/calc" } };
      return {
        status: 200,
        body: { number: 8, state: "open", title: "t", body: "", head, base: { sha: headSha, ref: "main" } },
      };
    }
    if (r.method === "GET" && r.path === "/repos/octo/calc") {
      return { status: 200, body: { clone_url: `file://${origin}`, default_branch: "main" } };
    }
    return undefined;
  });
  baseUrl = `http://${await github.start()}`;
});

afterAll(async () => {
  await github.stop();
  rmSync(origin, { recursive: true, force: true });
});

beforeEach(() => {
  checks = new FakeChecks();
  comments = {};
  configText = undefined;
  failChecks = false;
  fixCalls.length = 0;
  onFix = () => {};
  fixOutcome = undefined;
  github.requests.length = 0;
});

const deps: ProcessorDeps = {
  async connect(_installationId, repo) {
    const octokit = new ProbotOctokit({
      auth: { token: "ghs_test" },
      baseUrl,
      retry: { enabled: false },
      throttle: { enabled: false },
    }) as GitHubClient;
    return createRepoHost(octokit, "ghs_test", repo);
  },
  async fix(request) {
    fixCalls.push(request);
    request.onPhase?.("reproduce", "1 failing test(s) reproduced 3/3 times");
    onFix(request);
    if (fixOutcome) return fixOutcome;
    return {
      result: { status: "no-fix", reason: "no hypothesis led to an edit" } as never,
      report: "## Hypofix report",
      patch: "",
    };
  },
  async explain() {
    throw new Error("not used here");
  },
};
const processor = createJobProcessor(deps);

const command = (over: Partial<HypofixJob> = {}): HypofixJob => ({
  kind: "ci-failure",
  trigger: "command",
  installationId: 1,
  repo: { owner: "octo", name: "calc" },
  prNumber: 8,
  requestedBy: "writer",
  commentId: 5,
  commentedAt: "2026-03-01T12:30:00Z",
  ...over,
});

const run = (job: HypofixJob, signal = new AbortController().signal) =>
  processor(job, { jobId: "j", attempt: 1, log, signal });

const posted = (path: RegExp) => github.requests.filter((r) => r.method === "POST" && path.test(r.path));

describe("the job processor's checks before the pipeline", () => {
  it("refuses a command from a user without write access once per pull request, and runs nothing", async () => {
    expect(await run(command({ requestedBy: "reader", commentId: 6 }))).toMatchObject({ status: "refused" });
    expect(comments[8]).toHaveLength(1);
    expect(comments[8]![0]!.body).toMatch(
      /^@reader only users with write access can run `\/fix` or `\/explain`/,
    );
    // Asked again (another command) after a worker restart: the reply on GitHub is found, none added.
    const restarted = createJobProcessor(deps);
    const again = command({ kind: "explain", requestedBy: "reader", commentId: 7 });
    expect(
      await restarted(again, { jobId: "k", attempt: 1, log, signal: new AbortController().signal }),
    ).toMatchObject({
      status: "refused",
    });
    expect(comments[8]).toHaveLength(1);
    expect(github.requests.filter((r) => r.method !== "GET" && r.path.includes("comments"))).toHaveLength(1);
    // Another user (not even a collaborator: a 404) still gets their own one reply.
    await run(command({ requestedBy: "stranger", commentId: 9 }));
    expect(comments[8]).toHaveLength(2);
    expect(posted(/reactions$/)).toEqual([]);
    expect(fixCalls).toEqual([]);
    expect(checks.states).toEqual([]);
  });

  it("refuses a command written before the head commit, asking for a new one", async () => {
    const summary = await run(command({ commentedAt: "2026-03-01T11:59:00Z" }));
    expect(summary).toMatchObject({ status: "refused" });
    expect(comments[8]![0]!.body).toContain(`head moved to \`${headSha.slice(0, 12)}\` after your comment`);
    expect(comments[8]![0]!.body).toContain("Comment `/fix` again");
    expect(posted(/reactions$/)).toEqual([]);
    expect(fixCalls).toEqual([]);
  });

  it("runs a writer's command on the head they saw: 👀, one check run, the config from the default branch", async () => {
    configText = "max_experiments: 7\n";
    expect(await run(command())).toEqual({ status: "no-fix" });
    expect(posted(/\/issues\/comments\/5\/reactions$/).map((r) => r.body)).toEqual([{ content: "eyes" }]);
    expect(fixCalls).toHaveLength(1);
    expect(fixCalls[0]).toMatchObject({ headSha, repoConfig: { max_experiments: 7 } });
    expect(fixCalls[0]!.allowSetupNetwork).toBeUndefined();
    expect(checks.sequence(headSha)).toEqual([
      "in_progress: Working: fetching the commit",
      "in_progress: Working: fetch done",
      "in_progress: Working: reproduce done",
      "completed/neutral: Hypofix: no-fix",
    ]);
    expect(checks.states.at(-1)!.output!.summary).toMatch(/^no hypothesis led to an edit\n\nPhases:/);
    expect((comments[8] ?? []).filter((c) => c.body.includes("write access"))).toEqual([]);
  });

  it("ends an invalid configuration as action_required with the problem, before any work", async () => {
    configText = "test_command: make test\nmode: sometimes\n";
    const summary = await run(command());
    expect(summary).toMatchObject({ status: "bad-config" });
    const end = checks.states.at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "action_required" });
    expect(end.output!.summary).toContain("test_command: must run pytest");
    expect(end.output!.summary).toContain("mode:");
    expect(comments[8]!.at(-1)!.body).toMatch(/^Hypofix did not run: /);
    expect(fixCalls).toEqual([]);
  });

  it("treats a head from another repository as a fork: no setup network; forks: off runs nothing", async () => {
    const fork = {
      ...command(),
      trigger: "ci" as const,
      headSha,
      headRepo: { owner: "someone", name: "calc" },
    };
    await run(fork);
    expect(fixCalls[0]!.allowSetupNetwork).toBe(false);
    fixCalls.length = 0;
    configText = "forks: off\n";
    expect(await run(fork)).toMatchObject({ status: "skipped" });
    expect(fixCalls).toEqual([]);
  });

  it("concludes the check run cancelled when the job is cancelled between phases, and leaves it at shutdown", async () => {
    const stopWith = (reason: JobStopped) => {
      const controller = new AbortController();
      onFix = () => {
        controller.abort(reason);
        controller.signal.throwIfAborted();
      };
      return controller.signal;
    };
    const cancelled = new JobStopped("cancelled", "cancelled: the branch moved on to a newer head");
    // The worker decides what the job becomes; the processor ends the check run first.
    await expect(run(command(), stopWith(cancelled))).rejects.toBe(cancelled);
    expect(checks.sequence(headSha).at(-1)).toBe("completed/cancelled: Hypofix stopped");
    expect(checks.states.at(-1)!.output!.summary).toMatch(/^cancelled: the branch moved on to a newer head/);

    checks = new FakeChecks();
    const shutdown = new JobStopped("shutdown", "the worker is shutting down");
    await expect(run(command({ commentId: 11 }), stopWith(shutdown))).rejects.toBe(shutdown);
    expect(checks.states.map((c) => c.status)).not.toContain("completed");
  });

  it("keeps working when the check-run API fails", async () => {
    failChecks = true;
    expect(await run(command())).toEqual({ status: "no-fix" });
    expect(fixCalls).toHaveLength(1);
  });

  it("concludes a job that failed for good as failure, once, with the reason made inert", async () => {
    const hook = createFinalFailureHook({
      connect: async (_id, repo) =>
        createRepoHost(
          new ProbotOctokit({ auth: { token: "t" }, baseUrl, retry: { enabled: false } }) as GitHubClient,
          "t",
          repo,
        ),
    });
    const job = command();
    await hook(job, new Error("sandbox died <img src=x> @org/team"), log);
    const end = checks.states.at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "failure", head_sha: headSha });
    expect(end.output!.summary).toContain("the job failed for good: sandbox died \\<img src=x\\>");
    expect(end.output!.summary).not.toContain("@org/team");
    const states = checks.states.length;
    await hook(job, new Error("again"), log);
    expect(checks.states).toHaveLength(states);
  });
});

describe("a partial fix in the App", () => {
  it("is never a pull request: the report goes to the pull request as a comment, the check run ends neutral with what it fixes", async () => {
    const reason =
      "a patch fixes 1 of 2 failing tests (tests/test_calc.py::test_add) and breaks no test that passed before; tests/test_calc.py::test_sub still fails";
    fixOutcome = {
      result: { status: "partial", reason } as never,
      report: "### A patch to `add` fixes 1 of 2 failing tests: not a fix",
      patch:
        "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n",
    };
    expect(await run(command())).toEqual({ status: "partial" });
    expect(posted(/\/git\/|\/pulls/)).toEqual([]);
    expect(comments[8]).toHaveLength(1);
    expect(comments[8]![0]!.body).toMatch(/^### A patch to `add` fixes 1 of 2 failing tests: not a fix\n/);
    const end = checks.states.at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(end.output!.title).toBe("Hypofix: partial");
    expect(end.output!.summary).toContain("a patch fixes 1 of 2 failing tests");
    expect(end.output!.summary).toContain("test_sub still fails");
  });
});
