import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_BODY,
  fitBody,
  fixBranch,
  openFixPullRequest,
  reportCheckRun,
} from "../../src/github/outbound/publish.js";

const repo = { owner: "octo", repo: "calc" };
const baseSha = "1".repeat(40);
const octokit = new ProbotOctokit({
  auth: { token: "ghs_test" },
  retry: { enabled: false },
  throttle: { enabled: false },
});
const api = () => nock("https://api.github.com");

describe("publishing (GitHub API via nock)", () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it("commits the patched files on a fix branch and opens the pull request", async () => {
    const seen: Record<string, unknown> = {};
    api()
      .post("/repos/octo/calc/git/blobs", (b: { content: string }) => {
        seen.blob = b.content;
        return true;
      })
      .reply(201, { sha: "blob1" })
      .get(`/repos/octo/calc/git/commits/${baseSha}`)
      .reply(200, { sha: baseSha, tree: { sha: "tree0" } })
      .post("/repos/octo/calc/git/trees", (b: { base_tree: string; tree: unknown[] }) => {
        seen.tree = b;
        return true;
      })
      .reply(201, { sha: "tree1" })
      .post("/repos/octo/calc/git/commits", (b: { parents: string[]; tree: string }) => {
        seen.commit = b;
        return true;
      })
      .reply(201, { sha: "commit1" })
      .post("/repos/octo/calc/git/refs", { ref: `refs/heads/${fixBranch(baseSha)}`, sha: "commit1" })
      .reply(201, {})
      .post("/repos/octo/calc/pulls", (b: { head: string; base: string; body: string }) => {
        seen.pr = b;
        return true;
      })
      .reply(201, { number: 12, html_url: "https://github.com/octo/calc/pull/12" });

    const pr = await openFixPullRequest(octokit, repo, {
      baseSha,
      baseBranch: "feature",
      files: { "calc/ops.py": "def add(a, b):\n    return a + b\n" },
      title: "Fix add() returning a - b",
      body: "report",
    });

    expect(pr).toEqual({
      number: 12,
      url: "https://github.com/octo/calc/pull/12",
      branch: "hypofix/fix-111111111111",
    });
    expect(seen.blob).toBe("def add(a, b):\n    return a + b\n");
    expect(seen.tree).toEqual({
      base_tree: "tree0",
      tree: [{ path: "calc/ops.py", mode: "100644", type: "blob", sha: "blob1" }],
    });
    expect(seen.commit).toMatchObject({ parents: [baseSha], tree: "tree1" });
    expect(seen.pr).toMatchObject({ head: "hypofix/fix-111111111111", base: "feature", body: "report" });
  });

  it("moves its own branch when a retried job finds it already there", async () => {
    api()
      .get(`/repos/octo/calc/git/commits/${baseSha}`)
      .reply(200, { sha: baseSha, tree: { sha: "tree0" } })
      .post("/repos/octo/calc/git/trees")
      .reply(201, { sha: "tree1" })
      .post("/repos/octo/calc/git/commits")
      .reply(201, { sha: "commit2" })
      .post("/repos/octo/calc/git/refs")
      .reply(422, { message: "Reference already exists" })
      .patch(`/repos/octo/calc/git/refs/heads%2F${fixBranch(baseSha).replace("/", "%2F")}`, {
        sha: "commit2",
        force: true,
      })
      .reply(200, {})
      .post("/repos/octo/calc/pulls")
      .reply(201, { number: 13, html_url: "u" });
    const pr = await openFixPullRequest(octokit, repo, {
      baseSha,
      baseBranch: "main",
      files: { "old.py": null },
      title: "t",
      body: "b",
    });
    expect(pr.number).toBe(13);
  });

  it("reports the outcome as a completed check run", async () => {
    let body: Record<string, unknown> = {};
    api()
      .post("/repos/octo/calc/check-runs", (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(201, {});
    await reportCheckRun(octokit, repo, baseSha, { conclusion: "neutral", title: "No fix", summary: "s" });
    expect(body).toEqual({
      name: "Hypofix",
      head_sha: baseSha,
      status: "completed",
      conclusion: "neutral",
      output: { title: "No fix", summary: "s" },
    });
  });
});

describe("fitBody", () => {
  it("keeps short bodies and cuts long ones under GitHub's limit with a note", () => {
    expect(fitBody("short")).toBe("short");
    const cut = fitBody("x".repeat(100_000));
    expect(cut.length).toBeLessThanOrEqual(MAX_BODY);
    expect(cut).toContain("Report truncated");
  });
});
