import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultSchema } from "../../src/result.js";
import { FakeGitHub, type Recorded } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { bankOrigin } from "../helpers/bank-origin.js";
import { git } from "../helpers/git.js";

const run = promisify(execFile);
const FAILING = "tests/test_bank.py::test_withdraw_entire_balance";

/**
 * `hypofix fix <url>` as a user runs it before installing the App: GITHUB_TOKEN,
 * a pull request or Actions run URL, GitHub's API as a loopback fake reached
 * through GITHUB_API_URL or --api-url, the commit fetched with git, the real
 * Docker sandbox.
 */
describe("hypofix fix <GitHub URL>", () => {
  const origin = mkdtempSync(join(tmpdir(), "hypofix-cli-origin-"));
  let sha = "";
  let fixedSha = "";
  let goneForkSha = "";
  let api = "";
  let github: FakeGitHub;
  let gitHub: GitBackedGitHub;

  beforeAll(async () => {
    ({ sha, fixedSha } = bankOrigin(origin));
    // The pull request's branch; the fix pull request goes to it.
    git(origin, "branch", "feature", sha);
    // A run whose head repository is gone (a deleted fork): the same failing tree in a commit of its own.
    goneForkSha = git(origin, "commit-tree", `${sha}^{tree}`, "-p", sha, "-m", "from a fork since deleted");
    git(origin, "branch", "patch-1", goneForkSha);
    const log = [
      "2026-01-01T00:00:00.0000000Z ============ short test summary info ============",
      `2026-01-01T00:00:00.0000000Z FAILED ${FAILING} - AssertionError`,
    ].join("\n");
    // Git data, pull requests and comments land in the origin repository itself.
    gitHub = new GitBackedGitHub(origin, { owner: "octo", name: "bank" });
    github = new FakeGitHub((r: Recorded) => {
      const routes: [string, RegExp, unknown][] = [
        ["GET", /^\/repos\/octo\/bank$/, { clone_url: `file://${origin}`, default_branch: "main" }],
        [
          "GET",
          /^\/repos\/octo\/bank\/pulls\/5$/,
          {
            number: 5,
            head: { sha, ref: "feature", repo: { full_name: "octo/bank" } },
            base: { ref: "main" },
          },
        ],
        [
          "GET",
          /^\/repos\/octo\/bank\/actions\/runs\?/,
          {
            workflow_runs: [
              { id: 41, conclusion: "success" },
              { id: 42, conclusion: "failure" },
            ],
          },
        ],
        [
          "GET",
          /^\/repos\/octo\/bank\/actions\/runs\/43$/,
          { id: 43, head_sha: fixedSha, head_branch: "main", head_repository: { full_name: "octo/bank" } },
        ],
        [
          "GET",
          /^\/repos\/octo\/bank\/actions\/runs\/44$/,
          // GitHub's shape for a run from a fork that was deleted since: no head repository.
          { id: 44, head_sha: goneForkSha, head_branch: "patch-1", head_repository: null, pull_requests: [] },
        ],
        [
          "GET",
          /^\/repos\/octo\/bank\/actions\/runs\/4[234]\/jobs/,
          { jobs: [{ id: 420, conclusion: "failure" }] },
        ],
        ["GET", /^\/repos\/octo\/bank\/actions\/jobs\/420\/logs$/, log],
      ];
      const hit = routes.find(([m, p]) => m === r.method && p.test(r.path));
      return hit ? { status: 200, body: hit[2] } : gitHub.route(r);
    });
    api = `http://${await github.start()}`;
  });

  afterAll(async () => {
    await github.stop();
    gitHub.dispose();
    rmSync(origin, { recursive: true, force: true });
  });

  async function hypofix(args: string[], env: Record<string, string | undefined> = {}) {
    const out = mkdtempSync(join(tmpdir(), "hypofix-cli-out-"));
    const vars = { ...process.env, GITHUB_TOKEN: "ghp_cli_test", LOG_LEVEL: "warn" as const, ...env };
    try {
      const res = await run("node", ["bin/hypofix.js", "fix", ...args, "--out", out], { env: vars });
      return { code: 0, ...res, out };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr, out };
    }
  }

  it("fixes a pull request's failing test named by its CI log, and --open-pr publishes as the App", async () => {
    const res = await hypofix(
      ["https://github.example/octo/bank/pull/5", "--sandbox", "docker", "--open-pr", "--json"],
      { GITHUB_API_URL: api },
    );
    expect(res.stderr).not.toContain("ghp_cli_test");
    expect(res.code).toBe(0);
    const result = resultSchema.parse(JSON.parse(res.stdout));
    expect(result).toMatchObject({ status: "fixed", failingTests: [FAILING] });
    expect(github.find("GET", /\/actions\/runs\/42\/jobs/)).toBeDefined();
    expect(readFileSync(join(res.out, "report.md"), "utf8")).toContain("```diff");
    // Published as the worker does: the fix on hypofix/feature, a pull request into feature, a pointer on #5.
    const pull = gitHub.pulls[0]!;
    expect(pull).toMatchObject({ head: "hypofix/feature", base: "feature", state: "open" });
    expect(git(origin, "show", "refs/heads/hypofix/feature:bank.py")).toContain("return amount <= available");
    expect(git(origin, "rev-parse", "refs/heads/hypofix/feature^")).toBe(sha);
    expect(gitHub.comments.filter((c) => c.issue === 5).map((c) => c.body)).toEqual([
      expect.stringContaining(`#${pull.number}`),
    ]);
    expect(res.stderr).toContain(`publish: opened https://github.example/octo/bank/pull/${pull.number}`);
  });

  it("treats a run whose head repository is null as a fork's: --open-pr comments nothing, opens nothing", async () => {
    const before = github.requests.length;
    const res = await hypofix(
      ["https://github.example/octo/bank/actions/runs/44", "--sandbox", "docker", "--open-pr", "--json"],
      { GITHUB_API_URL: api },
    );
    expect(res.code).toBe(0);
    expect(resultSchema.parse(JSON.parse(res.stdout)).status).toBe("fixed");
    expect(res.stderr).toContain("publish: a fork's head never gets a pull request");
    const writes = github.requests.slice(before).filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(git(origin, "for-each-ref", "refs/heads/hypofix/patch-1")).toBe("");
  });

  it("exits 3 for a run whose failing test passes here, through --api-url, writing nothing to GitHub", async () => {
    const posts = github.requests.filter((r) => r.method === "POST").length;
    const res = await hypofix(
      ["https://github.example/octo/bank/actions/runs/43", "--sandbox", "docker", "--api-url", api],
      { GITHUB_API_URL: "http://127.0.0.1:9" },
    );
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("not-reproduced");
    expect(github.requests.filter((r) => r.method === "POST")).toHaveLength(posts);
  });

  it("exits 2 with one line for a URL that is neither, or without a token", async () => {
    const wrong = await hypofix(["https://github.example/octo/bank/issues/5"], { GITHUB_API_URL: api });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^hypofix: not a pull request or Actions run URL: .*\n$/);
    const tokenless = await hypofix(["https://github.example/octo/bank/pull/5"], {
      GITHUB_API_URL: api,
      GITHUB_TOKEN: "",
    });
    expect(tokenless.code).toBe(2);
    expect(tokenless.stderr).toMatch(/^hypofix: GITHUB_TOKEN is not set/);
    const missing = await hypofix(["https://github.example/octo/bank/pull/6"], { GITHUB_API_URL: api });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^hypofix: GitHub answered 404 for octo\/bank/);
  });
});
