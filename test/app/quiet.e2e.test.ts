// Issue 26, quiet by default, through the webhook, the queue and a worker (`hypofix serve`)
// against a loopback GitHub: `/hypofix pause` from a writer labels the pull request
// `hypofix:skip`, and a failing check on it then posts nothing (no check run, no review);
// `/hypofix resume` clears the label; a reader's pause is refused. At most
// `max_open_pull_requests` (3) fix pull requests are open: past it the fix is not opened and
// the check run says why; below it, it is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { failedCheckRun, prComment } from "../helpers/app-payloads.js";
import { git } from "../helpers/git.js";
import { ServedApp } from "../helpers/served-app.js";
import { BankApp } from "../ops/bank-app.js";

const PERMISSION: Record<string, string> = { maria: "write", mallory: "read" };

describe("quiet by default", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const served = new ServedApp(app, "quiet-e2e-secret");
  let origin = "";

  beforeAll(async () => {
    origin = app.repos[0]!.origin;
    app.intercept = (r: Recorded) => {
      const checked = checks.route(r);
      if (checked) return checked;
      const asked = /^\/repos\/octo\/bank\/collaborators\/([^/]+)\/permission$/.exec(r.path);
      if (r.method === "GET" && asked)
        return { status: 200, body: { permission: PERMISSION[asked[1]!] ?? "none" } };
      if (r.method === "POST" && /\/issues\/comments\/\d+\/reactions$/.test(r.path))
        return { status: 201, body: { id: 1, content: "eyes" } };
      return undefined;
    };
    await served.start();
  }, 120_000);

  afterAll(() => served.stop());

  const failingCommit = (message: string) =>
    git(origin, "commit-tree", `${app.sha}^{tree}`, "-p", app.sha, "-m", message);

  it("/hypofix pause labels the pull request, whose failing check then posts nothing; resume clears it", async () => {
    const sha = failingCommit("a paused change");
    git(origin, "branch", "paused", sha);
    app.gitHub.pulls.push({ number: 5, head: "paused", base: "main", title: "P", body: "", state: "open" });
    const pull = app.gitHub.pulls.find((p) => p.number === 5)!;

    await served.deliver("issue_comment", prComment(5, "/hypofix pause", "mallory", 301));
    expect(await served.finished((j) => j.commentId === 301)).toMatchObject({ status: "refused" });
    expect(pull.labels ?? []).toEqual([]);

    await served.deliver("issue_comment", prComment(5, "/hypofix pause", "maria", 302));
    expect(await served.finished((j) => j.commentId === 302)).toEqual({ status: "paused", pullRequest: 5 });
    expect(pull.labels).toEqual(["hypofix:skip"]);

    const before = app.github.requests.length;
    await served.deliver("check_run", failedCheckRun(sha, "paused", 9101, 5));
    expect(await served.finished((j) => j.headSha === sha)).toEqual({
      status: "skipped",
      reason: "pull request #5 is labelled hypofix:skip",
    });
    const writes = app.github.requests
      .slice(before)
      .filter((r) => r.method !== "GET" && r.path.startsWith("/repos/"))
      .map((r) => `${r.method} ${r.path}`);
    expect(writes, "no check run, review, comment or ref").toEqual([]);
    expect(checks.states.filter((s) => s.head_sha === sha)).toEqual([]);

    await served.deliver("issue_comment", prComment(5, "/hypofix resume", "maria", 303));
    expect(await served.finished((j) => j.commentId === 303)).toEqual({ status: "resumed", pullRequest: 5 });
    expect(pull.labels).toEqual([]);
  }, 120_000);

  it("past max_open_pull_requests the fix is not opened and the check run says why; below it, it is", async () => {
    for (const branch of ["a", "b", "c"]) {
      git(origin, "branch", `hypofix/${branch}`, app.sha);
      app.gitHub.pulls.push({
        number: 40 + app.gitHub.pulls.length,
        head: `hypofix/${branch}`,
        base: branch,
        title: `Fix ${branch}`,
        body: "",
        state: "open",
      });
    }
    const sha = failingCommit("one failure too many");
    git(origin, "branch", "capped", sha);
    await served.deliver("check_run", failedCheckRun(sha, "capped", 9102));
    expect(await served.finished((j) => j.headSha === sha)).toEqual({ status: "fixed", capped: true });
    expect(app.gitHub.head("hypofix/capped")).toBeUndefined();
    const end = checks.states.filter((s) => s.head_sha === sha).at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(end.output?.summary).toContain("3 Hypofix pull requests are open in this repository");
    expect(end.output?.summary).toContain("Debugging log");

    app.gitHub.pulls.find((p) => p.head === "hypofix/a")!.state = "closed";
    const next = failingCommit("room again");
    git(origin, "branch", "roomy", next);
    await served.deliver("check_run", failedCheckRun(next, "roomy", 9103));
    expect(await served.finished((j) => j.headSha === next)).toMatchObject({
      status: "fixed",
      publish: "opened",
    });
    expect(git(origin, "rev-parse", "refs/heads/hypofix/roomy^")).toBe(next);
  }, 300_000);
});
