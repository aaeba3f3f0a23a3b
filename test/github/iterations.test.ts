import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixChain, publishIteration, type FixChain } from "../../src/outbound/iterations.js";
import { publishFix, type PublishedFix } from "../../src/outbound/publish.js";
import { git } from "../helpers/git.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "./fix-repo.js";

/**
 * A fix pull request's chain of iterations against the git-backed fake GitHub: which heads
 * count as ours, how automatic iterations are counted from the branch's commits, and that
 * an iteration only ever fast-forwards the branch from the head it was built on.
 */
describe("iterations of a fix pull request", () => {
  const repo = new FixRepo({ "calc/ops.py": BUGGY });
  const ref = { owner: "octo", repo: "calc" };
  const branch = "hypofix/main";
  let base = "";
  let first: PublishedFix;

  beforeAll(async () => {
    base = repo.head("main");
    await repo.start();
    first = (await publishFix(
      repo.octokit,
      ref,
      await repo.fix(base, diffOf("calc/ops.py", BUGGY, FIXED)),
    )) as PublishedFix;
  });
  afterAll(() => repo.dispose());

  const iterate = async (chain: FixChain, parent: string, kind: "ci" | "steered", content: string) => {
    const now = git(repo.origin, "show", `${parent}:calc/ops.py`) + "\n";
    const fix = await repo.fix(parent, diffOf("calc/ops.py", now, content));
    return publishIteration(repo.octokit, ref, {
      chain,
      parent,
      kind,
      baseTree: fix.baseTree,
      files: fix.files,
      title: "Iterate",
      body: `iteration on ${parent}`,
    });
  };

  it("finds our pull request at its head, with no automatic iteration yet, and counts each one pushed", async () => {
    const chain = await fixChain(repo.octokit, ref, branch, first.commit, 3);
    expect(chain).toEqual({
      pullRequest: { number: first.number, url: first.url },
      branch,
      base,
      ciIterations: 0,
    });
    const pushed = await iterate(chain as FixChain, first.commit, "ci", "def add(a, b):\n    return b + a\n");
    expect(pushed).toMatchObject({ action: "updated", number: first.number });
    const next = repo.head(branch);
    expect(git(repo.origin, "rev-parse", `${next}^`)).toBe(first.commit);
    expect(repo.github.forcedUpdates).toBe(0);
    expect(await fixChain(repo.octokit, ref, branch, next, 3)).toMatchObject({ base, ciIterations: 1 });
  });

  it("starts the count again after a steered iteration, and stops counting past the cap", async () => {
    const ci = repo.head(branch);
    const chain = (await fixChain(repo.octokit, ref, branch, ci, 3)) as FixChain;
    await iterate(chain, ci, "steered", "def add(a, b):\n    return a + b  # steered\n");
    const steered = repo.head(branch);
    expect(await fixChain(repo.octokit, ref, branch, steered, 3)).toMatchObject({ ciIterations: 0 });
    let head = steered;
    for (const n of [1, 2, 3]) {
      const at = (await fixChain(repo.octokit, ref, branch, head, 3)) as FixChain;
      await iterate(at, head, "ci", `def add(a, b):\n    return a + b  # ${n}\n`);
      head = repo.head(branch);
    }
    expect(await fixChain(repo.octokit, ref, branch, head, 3)).toMatchObject({ ciIterations: 3 });
    expect(await fixChain(repo.octokit, ref, branch, head, 1)).toMatchObject({ ciIterations: 2 });
  });

  it("pushes nothing when the branch moved on past the head the iteration was built on", async () => {
    const head = repo.head(branch);
    const chain = (await fixChain(repo.octokit, ref, branch, head, 3)) as FixChain;
    const older = git(repo.origin, "rev-parse", `${head}^`);
    expect(await iterate(chain, older, "ci", "def add(a, b):\n    return a + b  # late\n")).toMatchObject({
      action: "blocked",
    });
    expect(repo.head(branch)).toBe(head);
  });

  it("is not ours: an older head, a commit someone else pushed, a person's pull request, no pull request", async () => {
    const head = repo.head(branch);
    const older = git(repo.origin, "rev-parse", `${head}^`);
    expect(await fixChain(repo.octokit, ref, branch, older, 3)).toEqual({
      notOurs: `${branch} moved on past ${older.slice(0, 12)}`,
    });

    const theirs = git(repo.origin, "commit-tree", `${head}^{tree}`, "-p", head, "-m", "a person's commit");
    git(repo.origin, "update-ref", `refs/heads/${branch}`, theirs);
    expect(await fixChain(repo.octokit, ref, branch, theirs, 3)).toEqual({
      notOurs: `${branch} holds ${theirs.slice(0, 12)}, a commit Hypofix did not make`,
    });
    git(repo.origin, "update-ref", `refs/heads/${branch}`, head);

    const pr = repo.github.pulls.find((p) => p.number === first.number)!;
    pr.author = { login: "maria", type: "User" };
    expect(await fixChain(repo.octokit, ref, branch, head, 3)).toEqual({
      notOurs: `pull request #${first.number} was not opened by Hypofix`,
    });
    pr.state = "closed";
    expect(await fixChain(repo.octokit, ref, branch, head, 3)).toEqual({
      notOurs: `no open pull request from ${branch}`,
    });
  });
});
