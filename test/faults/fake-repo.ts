import { randomBytes } from "node:crypto";
import type { Recorded, Route } from "../doubles/fake-github.js";

const sha = () => randomBytes(20).toString("hex");

/**
 * One repository's GitHub API with state, as far as a fix job uses it: refs that
 * exist refuse to be created again (422), one open pull request per head branch
 * (422 "A pull request already exists"), comments and check runs that can be listed.
 * So a job re-run after a crash meets what its first run left, as it would on GitHub.
 */
export class FakeRepo {
  readonly refs = new Map<string, string>();
  readonly pulls: {
    number: number;
    head: string;
    base: string;
    title: string;
    body: string;
    state: string;
  }[] = [];
  readonly comments: { issue: number; body: string }[] = [];
  readonly checkRuns: { id: number; head_sha: string; status?: string; conclusion?: string }[] = [];
  /** Called after a pull request was created (the fault suite kills a worker there). */
  onPullRequest?: () => void;

  constructor(
    readonly owner: string,
    readonly name: string,
    private readonly cloneUrl: string,
    private readonly baseSha: string,
  ) {}

  route: Route = (r: Recorded) => {
    const repoPath = `/repos/${this.owner}/${this.name}`;
    if (r.method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(r.path))
      return { status: 201, body: { token: "ghs_faults", permissions: {} } };
    if (!r.path.startsWith(repoPath)) return undefined;
    const [path = "", query = ""] = r.path.slice(repoPath.length).split("?");
    const params = new URLSearchParams(query);
    const body = (r.body ?? {}) as Record<string, unknown>;
    const ok = (value: unknown, status = 200) => ({ status, body: value });
    const pr = (p: FakeRepo["pulls"][number]) => ({
      ...p,
      html_url: `https://github.example/${this.owner}/${this.name}/pull/${p.number}`,
      head: { ref: p.head, sha: this.refs.get(p.head), repo: { full_name: `${this.owner}/${this.name}` } },
      base: { ref: p.base, sha: this.baseSha },
    });

    if (r.method === "GET" && path === "")
      return ok({
        clone_url: this.cloneUrl,
        default_branch: "main",
        full_name: `${this.owner}/${this.name}`,
      });
    if (r.method === "POST" && path === "/git/blobs") return ok({ sha: sha() }, 201);
    if (r.method === "GET" && /^\/git\/commits\/[0-9a-f]{40}$/.test(path))
      return ok({ sha: path.slice(-40), tree: { sha: sha() }, parents: [] });
    if (r.method === "POST" && path === "/git/trees") return ok({ sha: sha() }, 201);
    if (r.method === "POST" && path === "/git/commits")
      return ok({ sha: sha(), tree: { sha: body.tree }, parents: body.parents, message: body.message }, 201);
    if (r.method === "POST" && path === "/git/refs") {
      const ref = String(body.ref).replace(/^refs\/heads\//, "");
      if (this.refs.has(ref)) return ok({ message: "Reference already exists" }, 422);
      this.refs.set(ref, String(body.sha));
      return ok({ ref: `refs/heads/${ref}`, object: { sha: body.sha } }, 201);
    }
    const refMatch = /^\/git\/(?:ref|refs)\/heads\/(.+)$/.exec(path);
    if (refMatch) {
      const ref = decodeURIComponent(refMatch[1]!);
      if (r.method === "PATCH") {
        this.refs.set(ref, String(body.sha));
        return ok({ ref: `refs/heads/${ref}`, object: { sha: body.sha } });
      }
      const at = this.refs.get(ref);
      return at
        ? ok({ ref: `refs/heads/${ref}`, object: { sha: at, type: "commit" } })
        : ok({ message: "Not Found" }, 404);
    }
    if (r.method === "POST" && path === "/pulls") {
      const head = String(body.head).replace(/^[^:]+:/, "");
      if (this.pulls.some((p) => p.head === head && p.state === "open"))
        return ok(
          {
            message: "Validation Failed",
            errors: [{ message: `A pull request already exists for ${this.owner}:${head}.` }],
          },
          422,
        );
      const created = {
        number: 100 + this.pulls.length,
        head,
        base: String(body.base),
        title: String(body.title),
        body: String(body.body),
        state: "open",
      };
      this.pulls.push(created);
      setTimeout(() => this.onPullRequest?.(), 0);
      return ok(pr(created), 201);
    }
    if (r.method === "GET" && path === "/pulls") {
      const head = params.get("head")?.replace(/^[^:]+:/, "");
      const state = params.get("state") ?? "open";
      return ok(
        this.pulls
          .filter((p) => (!head || p.head === head) && (state === "all" || p.state === state))
          .map(pr),
      );
    }
    const pullMatch = /^\/pulls\/(\d+)$/.exec(path);
    if (pullMatch) {
      const found = this.pulls.find((p) => p.number === Number(pullMatch[1]));
      if (!found) return ok({ message: "Not Found" }, 404);
      if (r.method === "PATCH") Object.assign(found, body);
      return ok(pr(found));
    }
    const commentsMatch = /^\/issues\/(\d+)\/comments$/.exec(path);
    if (commentsMatch) {
      const issue = Number(commentsMatch[1]);
      if (r.method === "POST") {
        this.comments.push({ issue, body: String(body.body) });
        return ok({ id: this.comments.length, body: body.body, html_url: "https://github.example/c" }, 201);
      }
      return ok(this.comments.filter((c) => c.issue === issue).map((c, i) => ({ id: i + 1, body: c.body })));
    }
    if (r.method === "POST" && path === "/check-runs") {
      const run = { id: this.checkRuns.length + 1, head_sha: String(body.head_sha), ...(body as object) };
      this.checkRuns.push(run);
      return ok(run, 201);
    }
    const checkMatch = /^\/check-runs\/(\d+)$/.exec(path);
    if (checkMatch && r.method === "PATCH") {
      const run = this.checkRuns.find((c) => c.id === Number(checkMatch[1]));
      if (!run) return ok({ message: "Not Found" }, 404);
      Object.assign(run, body);
      return ok(run);
    }
    const listChecks = /^\/commits\/([0-9a-f]{40})\/check-runs$/.exec(path);
    if (listChecks) {
      const runs = this.checkRuns.filter((c) => c.head_sha === listChecks[1]);
      return ok({ total_count: runs.length, check_runs: runs });
    }
    return undefined;
  };
}
