import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepoHost } from "../../src/outbound/repo-host.js";
import { createJobProcessor, type ProcessorDeps } from "../../src/queue/processor.js";
import { BUGGY, FIXED, FixRepo, diffOf, fixed, jobRunner } from "../github/fix-repo.js";
import { git } from "../helpers/git.js";

/**
 * The worker's job processor end to end on its GitHub side: real git checkouts, the
 * git-backed fake GitHub on loopback, the pipeline replaced by its answer. Jobs are run
 * again as BullMQ would after a crash, and the repository is left as GitHub would hold it.
 */
describe("a job's GitHub writes are idempotent and keep one pull request per failing branch", () => {
  const repo = new FixRepo();
  const failingPr = 41;
  let patch = diffOf("calc/ops.py", BUGGY, FIXED);
  let pipelineRuns = 0;
  const deps: ProcessorDeps = {
    connect: async (_id, ref) => createRepoHost(repo.octokit, "ghs_git_token", ref),
    fix: async () => {
      pipelineRuns++;
      return fixed(patch);
    },
    explain: () => Promise.reject(new Error("not in this test")),
  };
  const processor = createJobProcessor(deps);
  const run = jobRunner(processor);
  const ourComments = (issue: number) => repo.github.comments.filter((c) => c.issue === issue);
  let s1 = "";
  let number = 0;

  beforeAll(async () => {
    git(repo.origin, "checkout", "--quiet", "-b", "feature");
    s1 = repo.head("feature");
    await repo.start();
    repo.intercept = (r) => {
      if (r.method === "GET" && r.path === "/repos/octo/calc") {
        return { status: 200, body: { clone_url: `file://${repo.origin}`, default_branch: "main" } };
      }
      if (r.method === "GET" && r.path === `/repos/octo/calc/pulls/${failingPr}`) {
        const head = repo.head("feature");
        return {
          status: 200,
          body: {
            number: failingPr,
            title: "A feature",
            body: "",
            base: { sha: s1, ref: "main" },
            head: { sha: head, ref: "feature", repo: { full_name: "octo/calc" } },
          },
        };
      }
      if (r.method === "POST" && r.path === "/repos/octo/calc/check-runs")
        return { status: 201, body: { id: 1 } };
      return undefined;
    };
  });
  afterAll(() => repo.dispose());

  it("publishes a fix once: the re-run ends with the same pull request, no pipeline run, no new commit, one comment", async () => {
    const first = await run({ headSha: s1, prNumber: failingPr });
    expect(first).toMatchObject({ status: "fixed", publish: "opened" });
    number = first.pullRequest as number;
    const head = repo.head("hypofix/feature");

    const before = repo.server.requests.length;
    const again = await run({ headSha: s1, prNumber: failingPr });
    expect(again).toEqual({ status: "fixed", pullRequest: number, publish: "unchanged" });
    // The fix for this commit is already proposed: the re-run does not run the pipeline again.
    expect(pipelineRuns).toBe(1);
    expect(repo.head("hypofix/feature")).toBe(head);
    expect(repo.github.pulls).toHaveLength(1);
    expect(ourComments(failingPr)).toHaveLength(1);
    expect(ourComments(failingPr)[0]!.body).toContain(`Hypofix proposes a validated fix: #${number}`);
    // The re-run writes nothing to the repository, its pull requests or comments: only its own check run.
    const writes = repo.writesSince(before).map((r) => `${r.method} ${r.path}`);
    expect(writes.filter((w) => !/^(POST|PATCH) \/repos\/octo\/calc\/check-runs(\/\d+)?$/.test(w))).toEqual(
      [],
    );
    expect(writes).toContain("POST /repos/octo/calc/check-runs");
  });

  it("revokes the git token after every job", () => {
    const revokes = repo.server.requests.filter(
      (r) => r.method === "DELETE" && r.path === "/installation/token",
    );
    expect(revokes).toHaveLength(2);
  });

  it("a second failure of the branch updates the same pull request in place", async () => {
    const s2 = repo.commit({ "calc/ops.py": BUGGY.replace("add", "plus") });
    patch = diffOf("calc/ops.py", BUGGY.replace("add", "plus"), FIXED.replace("add", "plus"));
    const out = await run({ headSha: s2, prNumber: failingPr });
    expect(out).toEqual({ status: "fixed", pullRequest: number, publish: "updated" });
    expect(pipelineRuns).toBe(2);
    expect(git(repo.origin, "rev-parse", "refs/heads/hypofix/feature^1")).toBe(s2);
    expect(repo.github.pulls).toHaveLength(1);
    expect(repo.github.forcedUpdates).toBe(0);
  });

  it("a failure after a human pushed to the fix branch leaves the branch alone and says so on the pull request", async () => {
    const ours = repo.head("hypofix/feature");
    const human = git(repo.origin, "commit-tree", `${ours}^{tree}`, "-p", ours, "-m", "my tweak");
    git(repo.origin, "update-ref", "refs/heads/hypofix/feature", human);
    const s3 = repo.commit({ "calc/extra.py": "z = 3\n" });
    const out = await run({ headSha: s3, prNumber: failingPr });
    expect(out).toEqual({ status: "fixed" });
    expect(repo.head("hypofix/feature")).toBe(human);
    expect(ourComments(number).map((c) => c.body)).toEqual([expect.stringContaining("did not push it")]);
    // One comment per pull request: the failing one's pointer became the report, edited in place.
    expect(ourComments(failingPr)).toHaveLength(1);
    expect(ourComments(failingPr)[0]!.body).not.toContain("Hypofix proposes a validated fix");
    // A green run does not close a pull request someone else has pushed to.
    const green = repo.commit({ "calc/extra.py": "z = 4\n" });
    repo.github.checkRuns.set(green, [{ name: "tests", status: "completed", conclusion: "success" }]);
    expect(await run({ kind: "ci-green", headSha: green, headBranch: "feature" })).toEqual({
      status: "nothing-to-close",
    });
    // The maintainer hands the branch back to Hypofix.
    git(repo.origin, "update-ref", "refs/heads/hypofix/feature", ours);
  });

  it("green CI on the branch closes the pull request with one comment; a re-run does nothing more", async () => {
    const green = repo.commit({ "calc/ops.py": FIXED.replace("add", "plus") });
    repo.github.checkRuns.set(green, [{ name: "tests", status: "completed", conclusion: "success" }]);
    const job = { kind: "ci-green" as const, headSha: green, headBranch: "feature" };
    expect(await run(job)).toEqual({ status: "closed", pullRequest: number });
    expect(repo.github.pulls[0]!.state).toBe("closed");
    expect(await run(job)).toEqual({ status: "nothing-to-close" });
    const notes = ourComments(number).filter((c) => c.body.includes("without this fix"));
    expect(notes).toHaveLength(1);
    // The fix pull request's one comment too: the blocked note became the closing note.
    expect(ourComments(number)).toHaveLength(1);
    expect(notes[0]!.body).toMatch(/passed at [0-9a-f]{12} without this fix/);
  });

  it("green CI on a branch without a Hypofix pull request closes nothing", async () => {
    const job = { kind: "ci-green" as const, headSha: repo.head("main"), headBranch: "main" };
    expect(await run(job)).toEqual({ status: "nothing-to-close" });
  });
});
