import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headOwner } from "../../src/outbound/head-owner.js";
import { FixRepo } from "./fix-repo.js";
import { git } from "../helpers/git.js";

/**
 * What GitHub must show before a head counts as the repository's own, against the
 * git-backed fake GitHub on loopback: a branch's tip, or an open same-repository pull
 * request's head. Everything else, and every API failure, is not proven.
 */
describe("headOwner: the repository's own only when GitHub shows it", () => {
  const repo = new FixRepo();
  const ref = { owner: "octo", repo: "calc" };
  let tip = "";
  let older = "";
  let associated: { status: number; body: unknown } | undefined;

  beforeAll(async () => {
    older = repo.head("main");
    tip = repo.commit({ "calc/extra.py": "x = 1\n" });
    await repo.start();
    repo.intercept = (r) =>
      r.method === "GET" && /\/commits\/[0-9a-f]{40}\/pulls/.test(r.path) ? associated : undefined;
  });
  afterAll(() => repo.dispose());

  const pull = (state: string, fullName: string, sha: string) => ({
    status: 200,
    body: [{ number: 3, state, head: { sha, ref: "topic", repo: { full_name: fullName } } }],
  });

  it("is proven by the named branch's tip, not by an older commit of it", async () => {
    associated = { status: 200, body: [] };
    expect(await headOwner(repo.octokit, ref, tip, "main")).toEqual({
      own: true,
      proof: "the tip of `main`",
    });
    expect(await headOwner(repo.octokit, ref, older, "main")).toMatchObject({ own: false });
    expect(await headOwner(repo.octokit, ref, tip, "no-such-branch")).toMatchObject({ own: false });
  });

  it("is proven by an open pull request whose head repository is this one and whose head is the commit", async () => {
    associated = pull("open", "octo/calc", older);
    expect(await headOwner(repo.octokit, ref, older)).toEqual({
      own: true,
      proof: "the head of pull request #3",
    });
    for (const other of [
      pull("closed", "octo/calc", older),
      pull("open", "eve/calc", older),
      pull("open", "octo/calc", tip),
      { status: 200, body: [{ number: 3, state: "open", head: { sha: older, ref: "x", repo: null } }] },
    ]) {
      associated = other;
      expect(await headOwner(repo.octokit, ref, older), JSON.stringify(other.body)).toMatchObject({
        own: false,
      });
    }
  });

  it("is not proven when GitHub fails to answer", async () => {
    associated = { status: 500, body: { message: "boom" } };
    const owner = await headOwner(repo.octokit, ref, older, "main");
    expect(owner).toMatchObject({ own: false });
    expect(owner.own ? "" : owner.why).toMatch(/^GitHub could not show it is this repository's own/);
    expect(git(repo.origin, "rev-parse", "main")).toBe(tip);
  });
});
