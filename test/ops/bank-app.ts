import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeGitHub, type Recorded, type Route } from "../doubles/fake-github.js";
import { GitBackedGitHub } from "../doubles/git-github.js";
import { bankRepo } from "../helpers/bank-origin.js";
import { appPrivateKey } from "../helpers/git.js";

export const REPO = { owner: "octo", name: "bank" } as const;
export const INSTALLATION = 7;

/**
 * The bundled bank-account example as GitHub repositories on loopback (`octo/bank`,
 * or `octo/bank-0` … for several): real git origins, GitHub's Git Data / pulls /
 * comments API backed by them (GitBackedGitHub), and the App routes a worker
 * calls. For the ops tests and benchmarks.
 */
export class BankApp {
  readonly privateKey = appPrivateKey();
  readonly repos: { name: string; origin: string; sha: string; gitHub: GitBackedGitHub }[];
  readonly github: FakeGitHub;
  host = "";
  /** Answers before the routes below: a test's own (check runs with state, a fork's pull requests). */
  intercept: Route = () => undefined;

  constructor(count = 1, root = process.cwd()) {
    this.repos = Array.from({ length: count }, (_, i) => {
      const name = count === 1 ? REPO.name : `${REPO.name}-${i}`;
      const origin = mkdtempSync(join(tmpdir(), `hypofix-${name}-`));
      const sha = bankRepo(origin, `${name}: bank account with a failing test`, root);
      return { name, origin, sha, gitHub: new GitBackedGitHub(origin, { owner: REPO.owner, name }) };
    });
    this.github = new FakeGitHub((r: Recorded) => {
      const intercepted = this.intercept(r);
      if (intercepted) return intercepted;
      if (r.method === "POST" && r.path === `/app/installations/${INSTALLATION}/access_tokens`)
        return { status: 201, body: { token: "ghs_ops", permissions: {} } };
      if (r.method === "POST" && r.path.endsWith("/check-runs")) return { status: 201, body: { id: 1 } };
      for (const repo of this.repos) {
        if (r.method === "GET" && r.path === `/repos/${REPO.owner}/${repo.name}`)
          return { status: 200, body: { clone_url: `file://${repo.origin}`, default_branch: "main" } };
        const answer = repo.gitHub.route(r);
        if (answer) return answer;
      }
      return undefined;
    });
  }

  get sha(): string {
    return this.repos[0]!.sha;
  }

  get gitHub(): GitBackedGitHub {
    return this.repos[0]!.gitHub;
  }

  /** Pull requests opened across all repositories. */
  get pulls(): number {
    return this.repos.reduce((n, r) => n + r.gitHub.pulls.length, 0);
  }

  async start(): Promise<string> {
    this.host = await this.github.start();
    return this.host;
  }

  /** A failed CI run of the head commit on main of repository `i`, as the webhook handler queues it. */
  job(i = 0): Record<string, unknown> {
    const repo = this.repos[i]!;
    return {
      kind: "ci-failure",
      installationId: INSTALLATION,
      repo: { owner: REPO.owner, name: repo.name },
      headSha: repo.sha,
      headBranch: "main",
    };
  }

  /** Environment for a `hypofix` process talking to this fake GitHub (offline engine: no LLM variables). */
  env(extra: Record<string, string>): NodeJS.ProcessEnv {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("HYPOFIX_LLM_") && k !== "PRIVATE_KEY_PATH"),
    );
    return {
      ...base,
      APP_ID: "1",
      PRIVATE_KEY: this.privateKey,
      GHE_HOST: this.host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "info",
      HYPOFIX_REDELIVERY_INTERVAL_MS: "0",
      ...extra,
    };
  }

  async close(): Promise<void> {
    await this.github.stop();
    for (const repo of this.repos) {
      repo.gitHub.dispose();
      rmSync(repo.origin, { recursive: true, force: true });
    }
  }
}
