// Hostile case (issue 12, point 7): git ran with the worker's whole environment (its
// secrets, GIT_* settings, HOME's configuration and credential helpers) and the
// installation token lived for its full hour. Now git gets a minimal environment, the
// token only for the one fetch, and the token is revoked when the job ends.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutCommit } from "../../src/outbound/checkout.js";
import { createRepoHost } from "../../src/outbound/repo-host.js";
import type { GitHubClient } from "../../src/outbound/publish.js";
import { FixRepo } from "../github/fix-repo.js";

describe("git's environment and the token's life", () => {
  const repo = new FixRepo();
  const bin = mkdtempSync(join(tmpdir(), "hypofix-gitspy-"));
  const home = mkdtempSync(join(tmpdir(), "hypofix-home-"));
  const log = join(bin, "calls.log");
  const saved = { ...process.env };

  beforeAll(() => {
    // A `git` first on PATH that records each call's arguments and environment, then runs git.
    const realGit = "/usr/bin/git";
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\n{ echo "CALL $1"; env; } >> "${log}"\nexec ${realGit} "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    // A worker environment git must not see: a secret, HOME configuration that would break
    // the fetch (every file:// URL rewritten) and a credential helper, GIT_* settings.
    writeFileSync(
      join(home, ".gitconfig"),
      `[url "file:///nonexistent/"]\n\tinsteadOf = file://\n[credential]\n\thelper = store\n`,
    );
    Object.assign(process.env, {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      PRIVATE_KEY: "worker-private-key",
      GIT_CONFIG_PARAMETERS: "'core.sshCommand=touch /tmp/pwned'",
      GIT_ASKPASS: "/bin/echo",
    });
  });
  afterAll(() => {
    process.env = saved;
    rmSync(bin, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    return repo.dispose();
  });

  it("gives git nothing of the worker's environment and the token to the fetch alone", async () => {
    const sha = repo.head("main");
    writeFileSync(log, "");
    const c = await checkoutCommit({ cloneUrl: `file://${repo.origin}`, sha, token: "ghs_git_token" });
    await c.entry("calc/ops.py");
    await c.dispose();
    const calls = readFileSync(log, "utf8")
      .split(/^CALL /m)
      .filter(Boolean);
    expect(calls.map((c) => c.split("\n")[0])).toEqual(["init", "remote", "fetch", "checkout", "ls-tree"]);
    const basic = Buffer.from("x-access-token:ghs_git_token").toString("base64");
    for (const call of calls) {
      const name = call.split("\n")[0];
      expect(call, name).not.toContain("worker-private-key");
      expect(call, name).not.toMatch(/^GIT_CONFIG_PARAMETERS=|^GIT_ASKPASS=/m);
      expect(call, name).not.toContain(`HOME=${home}`);
      expect(call.includes(basic), name).toBe(name === "fetch");
    }
    // The header is scoped to the clone URL, so a redirect elsewhere does not carry it.
    expect(calls[2]).toContain(`GIT_CONFIG_KEY_0=http.file://${repo.origin}.extraHeader`);
  });

  it("revokes the token git was given, authenticated as that token", async () => {
    nock.disableNetConnect();
    try {
      let auth = "";
      nock("https://api.github.com")
        .delete("/installation/token")
        .reply(function () {
          auth = String(this.req.headers.authorization);
          return [204, ""];
        });
      const octokit = new ProbotOctokit({
        auth: { token: "ghs_api" },
        retry: { enabled: false },
      }) as GitHubClient;
      await createRepoHost(octokit, "ghs_git_token", { owner: "octo", repo: "calc" }).dispose();
      expect(auth).toBe("token ghs_git_token");
      expect(nock.pendingMocks()).toEqual([]);
    } finally {
      nock.cleanAll();
      nock.enableNetConnect();
    }
  });
});
