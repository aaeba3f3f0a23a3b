// Issue 26, failure-signature dedupe, through the webhook, the queue and a worker (`hypofix
// serve`) against a loopback GitHub: a failure answered with a review of suggested changes gets
// no second one when a new commit that did not change it fails the same way (its workflow run's
// check run says it is already answered); a different failure (another test, another error) is
// answered.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeChecks } from "../doubles/fake-checks.js";
import type { Recorded } from "../doubles/fake-github.js";
import { failedCheckRun, failedWorkflowRun } from "../helpers/app-payloads.js";
import { commitWith } from "../helpers/bank-tests.js";
import { git } from "../helpers/git.js";
import { ServedApp } from "../helpers/served-app.js";
import { BankApp } from "../ops/bank-app.js";

describe("one answer per failure signature", () => {
  const app = new BankApp();
  const checks = new FakeChecks();
  const served = new ServedApp(app, "dedupe-e2e-secret");
  let origin = "";
  /** The bank example with the comparison fixed: the base branch `main`. */
  let fixedMain = "";
  let bank = "";

  beforeAll(async () => {
    origin = app.repos[0]!.origin;
    app.intercept = (r: Recorded) => checks.route(r);
    bank = readFileSync(join(origin, "bank.py"), "utf8");
    fixedMain = commitWith(
      origin,
      app.sha,
      `${app.sha}^{tree}`,
      { "bank.py": bank.replace("amount < available", "amount <= available") },
      "withdraw up to the balance",
    );
    git(origin, "update-ref", "refs/heads/main", fixedMain);
    await served.start();
  }, 120_000);

  afterAll(() => served.stop());

  const pullRequest = (number: number, head: string, sha: string) => {
    git(origin, "update-ref", `refs/heads/${head}`, sha);
    app.gitHub.pulls.push({ number, head, base: "main", title: head, body: "", state: "open" });
  };
  const reviewsOn = (pull: number) => app.gitHub.reviews.filter((r) => r.pull === pull);
  const lastCheck = (sha: string) => checks.states.filter((s) => s.head_sha === sha).at(-1)!;

  it("a new commit failing the same way gets no second suggestion; its check run says why", async () => {
    const first = commitWith(origin, fixedMain, `${app.sha}^{tree}`, {}, "compare strictly");
    pullRequest(5, "strict", first);
    await served.deliver("check_run", failedCheckRun(first, "strict", 9301, 5));
    expect(await served.finished((j) => j.headSha === first)).toMatchObject({ status: "fixed", review: 5 });
    expect(reviewsOn(5)).toHaveLength(1);

    const docs = commitWith(origin, first, `${first}^{tree}`, { "README.md": "# Bank\n\nDocs.\n" }, "docs");
    git(origin, "update-ref", "refs/heads/strict", docs);
    await served.deliver("workflow_run", failedWorkflowRun(docs, "strict", 9302, 5));
    expect(await served.finished((j) => j.headSha === docs)).toEqual({ status: "fixed", answered: 5 });
    expect(reviewsOn(5), "no second review").toHaveLength(1);
    expect(app.gitHub.head("hypofix/strict"), "no fix pull request either").toBeUndefined();
    const end = lastCheck(docs);
    expect(end).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(end.output?.title).toBe("Validated fix not posted: this failure is already answered");
    expect(end.output?.summary).toContain("the same failing tests and errors");
    expect(end.output?.summary).toContain(`for commit ${first.slice(0, 12)}`);
  }, 400_000);

  it("a different failure is answered", async () => {
    const deposits = commitWith(
      origin,
      fixedMain,
      `${fixedMain}^{tree}`,
      {
        "bank.py": bank
          .replace("amount < available", "amount <= available")
          .replace(
            'if amount <= 0:\n            raise ValueError("deposit',
            'if amount < 0:\n            raise ValueError("deposit',
          ),
      },
      "deposits of nothing are fine",
    );
    pullRequest(6, "deposits", deposits);
    await served.deliver("check_run", failedCheckRun(deposits, "deposits", 9303, 6));
    expect(await served.finished((j) => j.headSha === deposits)).toMatchObject({
      status: "fixed",
      review: 6,
    });
    expect(reviewsOn(6)).toHaveLength(1);
    expect(lastCheck(deposits)).toMatchObject({ conclusion: "success" });
  }, 300_000);
});
