// Hostile case (issue 12, point 7): a maintainer's commits on a `hypofix/*` branch. Before,
// any 422 on createRef became a forced update and their work was gone. Now Hypofix moves
// its branch only from a commit it made, and only by fast-forward (GitHub refuses the move
// if anyone pushed meanwhile), so a human's commit always survives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishFix, type PublishedFix } from "../../src/outbound/publish.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "../github/fix-repo.js";
import { git } from "../helpers/git.js";

describe("a fix branch that holds someone else's commit", () => {
  const repo = new FixRepo();
  const ref = { owner: "octo", repo: "calc" };
  const patch = diffOf("calc/ops.py", BUGGY, FIXED);
  beforeAll(() => repo.start());
  afterAll(() => repo.dispose());

  it("is never moved: a human commit on top of our fix survives the next failure", async () => {
    const s1 = repo.head("main");
    const opened = (await publishFix(repo.octokit, ref, await repo.fix(s1, patch))) as PublishedFix;
    // A maintainer pushes a commit of their own onto hypofix/main.
    const tree = git(repo.origin, "rev-parse", `${opened.commit}^{tree}`);
    const human = git(repo.origin, "commit-tree", tree, "-p", opened.commit, "-m", "tweak the fix");
    git(repo.origin, "update-ref", "refs/heads/hypofix/main", human);

    const s2 = repo.commit({ "calc/other.py": "x = 1\n" });
    const out = await publishFix(repo.octokit, ref, await repo.fix(s2, patch));
    expect(out).toMatchObject({ action: "blocked", pullRequest: { number: opened.number } });
    expect(repo.head("hypofix/main")).toBe(human);
    expect(repo.github.forcedUpdates).toBe(0);
    // The other side: a re-run for the commit our fix was for finds the branch ours no longer.
    expect((await publishFix(repo.octokit, ref, await repo.fix(s1, patch))).action).toBe("blocked");
  });

  it("is never moved when a human pushes between Hypofix's read and its write (compare-and-swap)", async () => {
    const branch = "hypofix/race";
    const s1 = repo.head("main");
    git(repo.origin, "branch", "race", s1);
    const opened = (await publishFix(
      repo.octokit,
      ref,
      await repo.fix(s1, patch, { baseBranch: "race" }),
    )) as PublishedFix;
    git(repo.origin, "checkout", "--quiet", "race");
    const s2 = repo.commit({ "calc/race.py": "y = 2\n" });
    git(repo.origin, "checkout", "--quiet", "main");
    let human = "";
    repo.intercept = (r) => {
      if (r.method === "POST" && r.path.endsWith("/git/commits") && !human) {
        const tree = git(repo.origin, "rev-parse", `${opened.commit}^{tree}`);
        human = git(repo.origin, "commit-tree", tree, "-p", opened.commit, "-m", "pushed meanwhile");
        git(repo.origin, "update-ref", `refs/heads/${branch}`, human);
      }
      return undefined;
    };
    const out = await publishFix(repo.octokit, ref, await repo.fix(s2, patch, { baseBranch: "race" }));
    repo.intercept = () => undefined;
    expect(out.action).toBe("blocked");
    expect(repo.head(branch)).toBe(human);
    expect(repo.github.forcedUpdates).toBe(0);
  });

  it("keeps repository text in the title on one line, so it cannot forge the commit's trailer", async () => {
    const s1 = repo.head("main");
    git(repo.origin, "branch", "titled", s1);
    const forged = `Fix add\n\nHypofix-Fixes: ${"f".repeat(40)}`;
    const out = (await publishFix(
      repo.octokit,
      ref,
      await repo.fix(s1, patch, { baseBranch: "titled", title: forged }),
    )) as PublishedFix;
    const message = git(repo.origin, "log", "-1", "--format=%B", out.commit);
    expect(message.split("\n")[0]).toBe(`Fix add Hypofix-Fixes: ${"f".repeat(40)}`);
    expect(message).toMatch(new RegExp(`^Hypofix-Fixes: ${s1}$`, "m"));
    expect(message.match(/^Hypofix-Fixes:/gm)).toHaveLength(1);
  });

  it("is never taken over when a human created it first, without a pull request", async () => {
    const s1 = repo.head("main");
    git(repo.origin, "branch", "solo", s1);
    const mine = git(repo.origin, "commit-tree", `${s1}^{tree}`, "-p", s1, "-m", "my own work");
    git(repo.origin, "update-ref", "refs/heads/hypofix/solo", mine);
    const out = await publishFix(repo.octokit, ref, await repo.fix(s1, patch, { baseBranch: "solo" }));
    expect(out).toMatchObject({ action: "blocked", branch: "hypofix/solo" });
    expect(repo.head("hypofix/solo")).toBe(mine);
  });
});
