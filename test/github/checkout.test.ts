import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutCommit, type Checkout } from "../../src/outbound/checkout.js";
import { git } from "../helpers/git.js";

describe("checkoutCommit (real git over file://)", () => {
  const origin = mkdtempSync(join(tmpdir(), "hypofix-origin-"));
  git(origin, "init", "--quiet");
  git(origin, "config", "uploadpack.allowAnySHA1InWant", "true");
  writeFileSync(join(origin, "calc.py"), "v = 1\n");
  git(origin, "add", ".");
  git(origin, "commit", "--quiet", "-m", "one");
  const first = git(origin, "rev-parse", "HEAD");
  writeFileSync(join(origin, "calc.py"), "v = 2\n");
  git(origin, "commit", "--quiet", "-am", "two");
  const checkouts: Checkout[] = [];
  afterAll(async () => Promise.all(checkouts.map((c) => c.dispose())));

  it("checks out exactly the requested commit, without the token in .git/config", async () => {
    const c = await checkoutCommit({ cloneUrl: `file://${origin}`, sha: first, token: "ghs_secret" });
    checkouts.push(c);
    expect(readFileSync(join(c.dir, "calc.py"), "utf8")).toBe("v = 1\n");
    expect(git(c.dir, "rev-parse", "HEAD")).toBe(first);
    expect(readFileSync(join(c.dir, ".git", "config"), "utf8")).not.toContain("ghs_secret");
  });

  it("fetches a second commit for comparison", async () => {
    const head = git(origin, "rev-parse", "HEAD");
    const c = await checkoutCommit({ cloneUrl: `file://${origin}`, sha: head, alsoFetch: [first] });
    checkouts.push(c);
    expect(readFileSync(join(c.dir, "calc.py"), "utf8")).toBe("v = 2\n");
    expect(git(c.dir, "diff", first, head)).toContain("-v = 1");
  });

  it("says which commit it could not fetch", async () => {
    await expect(checkoutCommit({ cloneUrl: `file://${origin}`, sha: "f".repeat(40) })).rejects.toThrow(
      /could not fetch ffffffffffff/,
    );
  });
});
