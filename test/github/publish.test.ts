import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_BODY,
  closeFixPullRequest,
  fitBody,
  publishFix,
  recordedFix,
  reportCheckRun,
  upsertComment,
  type PublishedFix,
} from "../../src/outbound/publish.js";
import { git } from "../helpers/git.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "./fix-repo.js";

/**
 * Publishing against GitHub's API as a loopback fake backed by a real git
 * repository: what the fake's refs, commits, pull requests and comments hold
 * after each call is what GitHub would hold.
 */
describe("publishing a fix (git-backed fake GitHub)", () => {
  const repo = new FixRepo({ "calc/ops.py": BUGGY, "calc/run.py": "print(1 - 1)\n" });
  const ref = { owner: "octo", repo: "calc" };
  let s1 = "";
  let first: PublishedFix;

  beforeAll(async () => {
    repo.executable("calc/run.py");
    s1 = repo.head("main");
    await repo.start();
  });
  afterAll(() => repo.dispose());

  it("opens one pull request with one tree (files inline, modes kept), one commit, one ref: four writes", async () => {
    const patch =
      diffOf("calc/ops.py", BUGGY, FIXED) + diffOf("calc/run.py", "print(1 - 1)\n", "print(1 + 1)\n");
    const before = repo.server.requests.length;
    const started = performance.now();
    const out = await publishFix(repo.octokit, ref, await repo.fix(s1, patch));
    const ms = performance.now() - started;
    expect(out.action).toBe("opened");
    first = out as PublishedFix;
    const writes = repo.writesSince(before).map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([
      "POST /repos/octo/calc/git/trees",
      "POST /repos/octo/calc/git/commits",
      "POST /repos/octo/calc/git/refs",
      "POST /repos/octo/calc/pulls",
    ]);
    console.log(
      `publish: ${writes.length} API writes for 2 files (blob-per-file before: 6), ${ms.toFixed(0)} ms`,
    );

    const head = repo.head("hypofix/main");
    expect(head).toBe(first.commit);
    expect(git(repo.origin, "rev-parse", `${head}^@`)).toBe(s1);
    expect(git(repo.origin, "show", `${head}:calc/ops.py`)).toBe(FIXED.trim());
    // The executable bit survives: the tree keeps the mode the file had.
    expect(git(repo.origin, "ls-tree", head, "calc/run.py")).toMatch(/^100755 blob/);
    expect(git(repo.origin, "ls-tree", head, "calc/ops.py")).toMatch(/^100644 blob/);
    expect(repo.github.pulls).toHaveLength(1);
    expect(recordedFix(repo.github.pulls[0]!.body)).toEqual({ head, base: s1 });
  });

  it("a re-run after the pull request exists ends with that pull request: no new commit, no write", async () => {
    const before = repo.server.requests.length;
    const patch = diffOf("calc/ops.py", BUGGY, "def add(a, b):\n    return b + a\n");
    const again = await publishFix(repo.octokit, ref, await repo.fix(s1, patch, { body: "another report" }));
    expect(again).toMatchObject({ action: "unchanged", number: first.number, commit: first.commit });
    expect(repo.writesSince(before)).toEqual([]);
    expect(repo.head("hypofix/main")).toBe(first.commit);
    expect(repo.github.pulls[0]!.body).toContain("report");
    expect(repo.github.pulls[0]!.body).not.toContain("another report");
  });

  it("posts a keyed comment once, however often the job runs, and ignores a user quoting the marker", async () => {
    const before = repo.server.requests.length;
    repo.github.addComment(41, "quoting <!-- hypofix:comment fix:abc -->", {
      login: "mallory",
      type: "User",
    });
    const one = await upsertComment(repo.octokit, ref, 41, "fix:abc", "Hypofix proposes a validated fix: #1");
    const two = await upsertComment(repo.octokit, ref, 41, "fix:abc", "Hypofix proposes a validated fix: #1");
    expect([one.action, two.action]).toEqual(["posted", "unchanged"]);
    const ours = repo.github.comments.filter((c) => c.issue === 41 && c.user.type === "Bot");
    expect(ours).toHaveLength(1);
    expect(repo.writesSince(before)).toHaveLength(1);
    // Changed text updates the same comment rather than posting a second one.
    expect((await upsertComment(repo.octokit, ref, 41, "fix:abc", "new text")).action).toBe("updated");
    expect(repo.github.comments.filter((c) => c.issue === 41 && c.user.type === "Bot")).toHaveLength(1);
    await expect(upsertComment(repo.octokit, ref, 41, "fix --> <b>", "x")).rejects.toThrow(/not a plain key/);
  });

  it("with its App id known, tells its own comments from another App's bot quoting the marker", async () => {
    const actions = { login: "github-actions[bot]", type: "Bot" as const };
    repo.github.addComment(42, "echo <!-- hypofix:comment report:abc -->", actions, 15368);
    const ours = await upsertComment(repo.octokit, ref, 42, "report:abc", "the report", repo.github.appId);
    expect(ours.action).toBe("posted");
    expect(
      await upsertComment(repo.octokit, ref, 42, "report:abc", "the report", repo.github.appId),
    ).toMatchObject({
      action: "unchanged",
    });
    expect(repo.github.comments.filter((c) => c.issue === 42)).toHaveLength(2);
    // The other side: without the App id any bot counts, and the workflow's comment would be taken for ours.
    expect((await upsertComment(repo.octokit, ref, 42, "report:abc", "the report")).url).not.toBe(ours.url);
  });

  let s2 = "";
  let second: PublishedFix;
  it("a second failure of the same branch moves the same pull request to a new fix, by fast-forward", async () => {
    s2 = repo.commit({ "calc/more.py": "def sub(a, b):\n    return a + b\n" });
    const patch = diffOf(
      "calc/more.py",
      "def sub(a, b):\n    return a + b\n",
      "def sub(a, b):\n    return a - b\n",
    );
    const before = repo.server.requests.length;
    const out = await publishFix(
      repo.octokit,
      ref,
      await repo.fix(s2, patch, { title: "Fix sub()", body: "report 2" }),
    );
    expect(out).toMatchObject({ action: "updated", number: first.number });
    second = out as PublishedFix;
    const head = repo.head("hypofix/main");
    expect(head).toBe(second.commit);
    // Parents: the new failing commit, then our previous fix (so the move is a fast-forward).
    expect(git(repo.origin, "rev-parse", `${head}^1`, `${head}^2`).split("\n")).toEqual([s2, first.commit]);
    // The new tree is the new failing commit's plus the new patch (the old fix's tree is not carried).
    expect(git(repo.origin, "diff", "--name-only", s2, head)).toBe("calc/more.py");
    expect(repo.github.pulls).toHaveLength(1);
    expect(repo.github.pulls[0]).toMatchObject({ title: "Fix sub()", state: "open" });
    expect(recordedFix(repo.github.pulls[0]!.body)).toEqual({ head, base: s2 });
    const writes = repo.writesSince(before).map((r) => `${r.method} ${decodeURIComponent(r.path)}`);
    expect(writes.map((w) => w.replace(/\/\d+$/, "/N"))).toEqual([
      "POST /repos/octo/calc/git/trees",
      "POST /repos/octo/calc/git/commits",
      "PATCH /repos/octo/calc/git/refs/heads/hypofix/main",
      "PATCH /repos/octo/calc/pulls/N",
    ]);
    expect(repo.github.forcedUpdates).toBe(0);
  });

  it("green CI on an older commit, or a partly green one, leaves the pull request open; green closes it once", async () => {
    const note = "CI passed without this fix";
    repo.github.checkRuns.set(s1, [{ name: "tests", status: "completed", conclusion: "success" }]);
    expect(
      await closeFixPullRequest(repo.octokit, ref, { baseBranch: "main", greenSha: s1, note }),
    ).toBeUndefined();
    expect(repo.github.pulls[0]!.state).toBe("open");

    const green = repo.commit({ "calc/more.py": "def sub(a, b):\n    return a - b\n" });
    // One green check while another fails or still runs: CI has not turned green.
    const lint = { name: "lint", status: "completed", conclusion: "success" };
    for (const other of [
      { name: "tests", status: "completed", conclusion: "failure" },
      { name: "tests", status: "in_progress", conclusion: null },
    ]) {
      repo.github.checkRuns.set(green, [lint, other]);
      expect(
        await closeFixPullRequest(repo.octokit, ref, { baseBranch: "main", greenSha: green, note }),
      ).toBeUndefined();
      expect(repo.github.pulls[0]!.state).toBe("open");
    }
    // Every check passed (Hypofix's own, neutral, does not count either way).
    repo.github.checkRuns.set(green, [
      lint,
      { name: "tests", status: "completed", conclusion: "success" },
      { name: "Hypofix", status: "completed", conclusion: "neutral" },
    ]);
    const closed = await closeFixPullRequest(repo.octokit, ref, {
      baseBranch: "main",
      greenSha: green,
      note,
    });
    expect(closed?.number).toBe(second.number);
    expect(repo.github.pulls[0]!.state).toBe("closed");
    const rerun = await closeFixPullRequest(repo.octokit, ref, { baseBranch: "main", greenSha: green, note });
    expect(rerun).toBeUndefined();
    const notes = repo.github.comments.filter((c) => c.issue === second.number);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(note);
  });

  it("a failure after the close opens a new pull request on the same branch, still without forcing", async () => {
    const s3 = repo.commit({ "calc/ops.py": BUGGY.replace("add", "plus") });
    const patch = diffOf("calc/ops.py", BUGGY.replace("add", "plus"), FIXED.replace("add", "plus"));
    const out = await publishFix(repo.octokit, ref, await repo.fix(s3, patch));
    expect(out.action).toBe("opened");
    expect(repo.github.pulls.filter((p) => p.state === "open")).toHaveLength(1);
    expect(repo.github.forcedUpdates).toBe(0);
  });
});

describe("an interrupted or refused publication", () => {
  const repo = new FixRepo();
  beforeAll(() => repo.start());
  afterAll(() => repo.dispose());

  it("a run stopped after creating its branch is completed by the re-run: its pull request, no new commit", async () => {
    const s1 = repo.head("main");
    const fix = await repo.fix(s1, diffOf("calc/ops.py", BUGGY, FIXED));
    // The first run dies right after POST /git/refs.
    repo.intercept = (r) =>
      r.method === "POST" && r.path.endsWith("/pulls")
        ? { status: 502, body: { message: "worker lost" } }
        : undefined;
    await expect(publishFix(repo.octokit, { owner: "octo", repo: "calc" }, fix)).rejects.toMatchObject({
      status: 502,
    });
    repo.intercept = () => undefined;
    const branchHead = repo.head("hypofix/main");
    const before = repo.server.requests.length;
    const out = await publishFix(repo.octokit, { owner: "octo", repo: "calc" }, fix);
    expect(out).toMatchObject({ action: "opened", commit: branchHead });
    expect(repo.writesSince(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /repos/octo/calc/pulls",
    ]);
  });

  it("a refusal that is not a race is the answer: no second attempt, no loop", async () => {
    const s1 = repo.head("main");
    // `hypofix/nested/x` exists, so git cannot create `hypofix/nested` (a ref cannot also be a folder).
    git(repo.origin, "update-ref", "refs/heads/hypofix/nested/x", s1);
    const before = repo.server.requests.length;
    const fix = await repo.fix(s1, diffOf("calc/ops.py", BUGGY, FIXED), { baseBranch: "nested" });
    await expect(publishFix(repo.octokit, { owner: "octo", repo: "calc" }, fix)).rejects.toMatchObject({
      status: 422,
    });
    const refs = repo.server.requests
      .slice(before)
      .filter((r) => r.method === "POST" && r.path.endsWith("/git/refs"));
    expect(refs).toHaveLength(1);
  });
});

describe("recordedFix", () => {
  it("reads the marker that ends the body, not one quoted earlier in a code block", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map((x) => x.repeat(40));
    const quoted = `\`\`\`\n<!-- hypofix:fix head=${a} base=${b} -->\n\`\`\`\n`;
    expect(recordedFix(`${quoted}\n<!-- hypofix:fix head=${c} base=${d} -->\n`)).toEqual({
      head: c,
      base: d,
    });
    expect(recordedFix("no marker")).toBeUndefined();
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

describe("check runs (GitHub API via nock)", () => {
  const octokit = new ProbotOctokit({
    auth: { token: "ghs_test" },
    retry: { enabled: false },
    throttle: { enabled: false },
  });
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());

  it("reports the outcome as a completed check run", async () => {
    let body: Record<string, unknown> = {};
    nock("https://api.github.com")
      .post("/repos/octo/calc/check-runs", (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(201, {});
    await reportCheckRun(octokit, { owner: "octo", repo: "calc" }, "1".repeat(40), {
      conclusion: "neutral",
      title: "No fix",
      summary: "s",
    });
    expect(body).toEqual({
      name: "Hypofix",
      head_sha: "1".repeat(40),
      status: "completed",
      conclusion: "neutral",
      output: { title: "No fix", summary: "s" },
    });
    expect(nock.pendingMocks()).toEqual([]);
  });
});
