import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepoHost } from "../../src/outbound/repo-host.js";
import { createJobProcessor, type FixRequest } from "../../src/queue/processor.js";
import { FakeChecks } from "../doubles/fake-checks.js";
import { BUGGY, FIXED, FixRepo, diffOf, fixed, jobRunner } from "../github/fix-repo.js";
import { git } from "../helpers/git.js";

/**
 * Issue 12, point 1: a fork's head commit is fixed in a comment at most (no ref, no
 * commit, no pull request in the base repository), its setup gets no network, and
 * the fork's own `.github/hypofix.yml` is never read: the default branch's is.
 * The same job from the repository's own branch does open a pull request.
 */
describe("a fork's head is never published and never configures Hypofix", () => {
  const repo = new FixRepo();
  const checks = new FakeChecks();
  const asked: FixRequest[] = [];
  const processor = createJobProcessor({
    connect: async (_id, ref) => createRepoHost(repo.octokit, "ghs_git_token", ref),
    fix: async (request) => {
      asked.push(request);
      return fixed(diffOf("calc/ops.py", BUGGY, FIXED));
    },
    explain: () => Promise.reject(new Error("not in this test")),
  });
  let forkSha = "";
  let ownSha = "";

  beforeAll(async () => {
    ownSha = repo.head("main");
    // The fork's head carries a config of its own that would open pull requests without limits.
    git(repo.origin, "checkout", "--quiet", "-b", "fork-head");
    forkSha = repo.commit({ ".github/hypofix.yml": "mode: pull-request\nmax_experiments: 1000\n" });
    git(repo.origin, "checkout", "--quiet", "main");
    await repo.start();
    repo.intercept = (r) => {
      const checked = checks.route(r);
      if (checked) return checked;
      if (r.method === "GET" && r.path === "/repos/octo/calc") {
        return { status: 200, body: { clone_url: `file://${repo.origin}`, default_branch: "main" } };
      }
      if (r.method === "GET" && /^\/repos\/octo\/calc\/contents\/\.github(\/|%2F)hypofix\.yml/.test(r.path)) {
        return { status: 200, body: "max_experiments: 7\n" };
      }
      const pull = /^\/repos\/octo\/calc\/pulls\/(42|43)$/.exec(r.path);
      if (r.method === "GET" && pull) {
        const fork = pull[1] === "42";
        const head = fork
          ? { sha: forkSha, ref: "patch-1", repo: { full_name: "someone/calc" } }
          : { sha: ownSha, ref: "main", repo: { full_name: "octo/calc" } };
        return {
          status: 200,
          body: { number: Number(pull[1]), title: "t", body: "", head, base: { sha: ownSha, ref: "main" } },
        };
      }
      return undefined;
    };
  });
  afterAll(() => repo.dispose());

  const run = jobRunner(processor);

  it("fixes a fork's failing pull request in one comment: no ref, no commit, no pull request", async () => {
    const before = repo.server.requests.length;
    expect(await run({ headSha: forkSha, prNumber: 42 })).toEqual({ status: "fixed" });
    const writes = repo.writesSince(before).map((r) => `${r.method} ${r.path}`);
    expect(writes.filter((w) => /\/git\/|\/pulls/.test(w))).toEqual([]);
    expect(writes.filter((w) => w.includes("/issues/42/comments"))).toEqual([
      "POST /repos/octo/calc/issues/42/comments",
    ]);
    expect(git(repo.origin, "for-each-ref", "refs/heads/hypofix")).toBe("");
    expect(asked[0]).toMatchObject({
      headSha: forkSha,
      allowSetupNetwork: false,
      repoConfig: { max_experiments: 7 },
    });
    expect(checks.sequence(forkSha).at(-1)).toBe("completed/success: Hypofix: fixed");
  });

  it("publishes the same fix from the repository's own branch", async () => {
    expect(await run({ headSha: ownSha, prNumber: 43 })).toMatchObject({
      status: "fixed",
      publish: "opened",
    });
    expect(git(repo.origin, "for-each-ref", "--format=%(refname)", "refs/heads/hypofix")).toBe(
      "refs/heads/hypofix/main",
    );
    expect(asked[1]!.allowSetupNetwork).toBeUndefined();
  });
});
