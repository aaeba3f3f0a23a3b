// Issue 26, iterations of a fix pull request, through the webhook, the queue and a worker
// (`hypofix serve`) against a loopback GitHub. The failing commit has two faults and CI's log
// names one test; Hypofix's fix pull request fixes it, and its own CI then fails on the other:
// exactly one more iteration runs on its head and pushes to the same branch and pull request;
// the next failure there stops (max_ci_iterations: 1), the check run and the pull request's one
// comment saying why. A review requesting changes from a writer steers a new iteration from
// the failing commit with the review as the constraint; a reader's review is refused.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { failedCheckRun, prReview } from "../helpers/app-payloads.js";
import { testsPass } from "../helpers/bank-tests.js";
import { git } from "../helpers/git.js";
import { ServedApp } from "../helpers/served-app.js";
import { BankApp } from "../ops/bank-app.js";

const PERMISSION: Record<string, string> = { maria: "write", mallory: "read" };
const WITHDRAW = "tests/test_bank.py::test_withdraw_entire_balance";
const DEPOSIT = "tests/test_bank.py::test_deposit_must_be_positive";

/** An Actions job's log as pytest's summary shows a failing test in it. */
const ciLog = (test: string) =>
  [
    "2026-01-01T00:00:00.0000000Z ============ short test summary info ============",
    `2026-01-01T00:00:00.0000000Z FAILED ${test} - AssertionError`,
  ].join("\n");

describe("a fix pull request iterates on its own branch", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const logs = new Map<number, string>();
  const served = new ServedApp(app, "iterate-e2e-secret");
  let origin = "";
  /** The failing commit: the withdraw fault of the example, and a deposit fault. */
  let failing = "";
  let fixPr = 0;
  const iterations: string[] = [];

  beforeAll(async () => {
    origin = app.repos[0]!.origin;
    const bank = join(origin, "bank.py");
    writeFileSync(
      bank,
      readFileSync(bank, "utf8").replace(
        'if amount <= 0:\n            raise ValueError("deposit',
        'if amount < 0:\n            raise ValueError("deposit',
      ),
    );
    git(origin, "commit", "--quiet", "-am", "deposits of nothing are fine");
    failing = git(origin, "rev-parse", "HEAD");
    git(origin, "branch", "feature", failing);
    app.intercept = (r: Recorded) => {
      const checked = checks.route(r);
      if (checked) return checked;
      const log = /^\/repos\/octo\/bank\/actions\/jobs\/(\d+)\/logs$/.exec(r.path);
      if (r.method === "GET" && log && logs.has(Number(log[1])))
        return { status: 200, body: logs.get(Number(log[1])) };
      const asked = /^\/repos\/octo\/bank\/collaborators\/([^/]+)\/permission$/.exec(r.path);
      if (r.method === "GET" && asked)
        return { status: 200, body: { permission: PERMISSION[asked[1]!] ?? "none" } };
      return undefined;
    };
    await served.start();
  }, 120_000);

  afterAll(() => served.stop());

  /** A failed Actions job `id` on `sha` whose log names `test`, as its check run is delivered. */
  const ciFails = async (sha: string, branch: string, id: number, test: string, pull?: number) => {
    logs.set(id, ciLog(test));
    await served.deliver("check_run", failedCheckRun(sha, branch, id, pull));
    return served.finished((j) => j.headSha === sha && j.checkRunId === id);
  };

  const head = () => app.gitHub.head("hypofix/feature")!;
  const message = (sha: string) => git(origin, "log", "-1", "--format=%B", sha);
  const theFixPr = () => app.gitHub.pulls.find((p) => p.number === fixPr)!;

  it("the failing branch gets its fix pull request, which fixes the test CI named", async () => {
    expect(await ciFails(failing, "feature", 9201, WITHDRAW)).toMatchObject({
      status: "fixed",
      publish: "opened",
    });
    const pr = app.gitHub.pulls.find((p) => p.head === "hypofix/feature")!;
    fixPr = pr.number;
    iterations.push(head());
    expect(git(origin, "rev-parse", `${head()}^`)).toBe(failing);
    expect(testsPass(origin, head()), "the deposit fault is still there").toBe(false);
  }, 300_000);

  it("a failing check on the fix pull request causes one more iteration, on its head, to the same pull request", async () => {
    const previous = head();
    const pulls = app.gitHub.pulls.length;
    expect(await ciFails(previous, "hypofix/feature", 9202, DEPOSIT, fixPr)).toMatchObject({
      status: "fixed",
      pullRequest: fixPr,
      publish: "iterated",
    });
    expect(app.gitHub.pulls.length, "no new pull request").toBe(pulls);
    const next = head();
    iterations.push(next);
    expect(git(origin, "rev-list", "--parents", "-n", "1", next).split(" ").slice(1)).toEqual([previous]);
    expect(message(next)).toContain("Hypofix-Iteration: ci");
    expect(message(next)).toContain(`Hypofix-Fixes: ${failing}`);
    expect(testsPass(origin, next)).toBe(true);
    const body = theFixPr().body;
    expect(body).toContain(`the previous iteration, ${previous.slice(0, 12)}, did not pass CI`);
    expect(body).toContain("test_deposit_must_be_positive");
    expect(body).toContain(`this iteration starts from ${previous.slice(0, 12)}`);
    const end = checks.states.filter((s) => s.head_sha === previous).at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "success" });
    expect(end.output?.title).toBe(`Iteration pushed to #${fixPr}`);
  }, 300_000);

  it("the next failing check there does not iterate: the check run and the pull request's comment say why", async () => {
    const at = head();
    expect(await ciFails(at, "hypofix/feature", 9203, DEPOSIT, fixPr)).toEqual({
      status: "stopped",
      pullRequest: fixPr,
      iterations: 1,
    });
    expect(head(), "nothing pushed").toBe(at);
    const end = checks.states.filter((s) => s.head_sha === at).at(-1)!;
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(end.output?.title).toBe(`Hypofix stops iterating on #${fixPr}`);
    expect(end.output?.summary).toContain("max_ci_iterations allows (1)");
    const comments = app.gitHub.comments.filter((c) => c.issue === fixPr);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("Hypofix stops here: 1 automatic iteration(s) already ran");
  }, 300_000);

  it("a reader's review requesting changes is refused; a writer's steers an iteration from the failing commit", async () => {
    const at = head();
    await served.deliver(
      "pull_request_review",
      prReview(fixPr, "hypofix/feature", "changes_requested", "No.", "mallory", 801),
    );
    expect(await served.finished((j) => j.reviewId === 801)).toMatchObject({ status: "refused" });
    expect(head()).toBe(at);

    const ask = "Keep the deposit check strict, and @someone should not be pinged.";
    await served.deliver(
      "pull_request_review",
      prReview(fixPr, "hypofix/feature", "changes_requested", ask, "maria", 802),
    );
    expect(await served.finished((j) => j.reviewId === 802)).toMatchObject({
      status: "fixed",
      pullRequest: fixPr,
      publish: "iterated",
    });
    const next = head();
    expect(git(origin, "rev-list", "--parents", "-n", "1", next).split(" ").slice(1)).toEqual([at]);
    expect(message(next)).toContain("Hypofix-Iteration: steered");
    expect(testsPass(origin, next)).toBe(true);
    const body = theFixPr().body;
    expect(body).toContain("@maria requested changes in a review");
    expect(body).toContain(`starts again from the failing commit ${failing.slice(0, 12)}`);
    expect(body).toContain("Maintainer's constraint");
    expect(body).not.toContain("@someone");
  }, 300_000);
});
