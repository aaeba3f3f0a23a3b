import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePatch } from "diff";
import type { Recorded, Route } from "./fake-github.js";

/** What GitHub records as the author of commits an App makes through the API. */
export const BOT = { name: "hypofix[bot]", email: "1+hypofix[bot]@users.noreply.github.com" };

interface Pull {
  number: number;
  /** The head branch (of the fork, for a fork's pull request). */
  head: string;
  base: string;
  title: string;
  body: string;
  state: "open" | "closed";
  /** A fork's pull request: the head lives in `owner`'s fork, at `sha` (fetchable here as refs/pull/N/head). */
  fork?: { owner: string; sha: string };
  labels?: string[];
  /** Who opened it: the App (through POST /pulls) or, by default, a person. */
  author?: { login: string; type: "Bot" | "User" };
}

/** A review as GitHub keeps it: its comments were checked against the pull request's diff. */
interface PullReview {
  id: number;
  pull: number;
  body: string;
  commitId: string;
  event: string;
  comments: { path: string; line: number; start_line?: number; side?: string; body: string }[];
}

interface IssueComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: "Bot" | "User" };
  /** The App a comment was made through, if any. */
  app?: number;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * GitHub's Git Data, pulls and issue-comment APIs for one repository, backed by a
 * real git repository (objects, refs, fast-forward checks) and in-memory pull
 * requests and comments. Plug `route` into FakeGitHub; the worker and the tests
 * then see GitHub's answers to exactly what they wrote.
 */
export class GitBackedGitHub {
  readonly pulls: Pull[] = [];
  readonly comments: IssueComment[] = [];
  readonly reviews: PullReview[] = [];
  /** Check runs per commit, as CI reported them. */
  readonly checkRuns = new Map<string, { name: string; status: string; conclusion: string | null }[]>();
  /** Forced ref updates GitHub accepted: Hypofix must never make one. */
  forcedUpdates = 0;
  private readonly scratch = mkdtempSync(join(tmpdir(), "hypofix-fakegh-"));
  private nextId = 100;

  constructor(
    /** A git directory (bare or not) holding the repository's objects and refs. */
    readonly gitDir: string,
    readonly repo = { owner: "octo", name: "calc" },
    /** The App whose installation token makes the requests (its comments carry this id). */
    readonly appId = 1,
  ) {}

  git(args: string[], options: { input?: string; env?: Record<string, string> } = {}): string {
    return execFileSync("git", args, {
      cwd: this.gitDir,
      encoding: "utf8",
      input: options.input ?? "",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: BOT.name,
        GIT_AUTHOR_EMAIL: BOT.email,
        GIT_COMMITTER_NAME: BOT.name,
        GIT_COMMITTER_EMAIL: BOT.email,
        ...options.env,
      },
    }).trim();
  }

  /** A comment by someone else, as GitHub would list it. */
  addComment(issue: number, body: string, user: IssueComment["user"], app?: number): void {
    this.comments.push({ id: this.nextId++, issue, body, user, ...(app === undefined ? {} : { app }) });
  }

  /** The branch's head, or undefined. */
  head(branch: string): string | undefined {
    try {
      return this.git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    rmSync(this.scratch, { recursive: true, force: true });
  }

  readonly route: Route = (r: Recorded) => {
    const prefix = `/repos/${this.repo.owner}/${this.repo.name}`;
    if (r.method === "DELETE" && r.path === "/installation/token") return { status: 204, body: "" };
    if (!r.path.startsWith(`${prefix}/`)) return undefined;
    const [pathname = "", query = ""] = r.path.slice(prefix.length).split("?");
    const params = new URLSearchParams(query);
    const body = (r.body ?? {}) as Record<string, unknown>;
    try {
      return this.answer(r.method, decodeURIComponent(pathname), params, body);
    } catch (err) {
      return { status: 422, body: { message: String((err as Error).message).split("\n")[0] } };
    }
  };

  private answer(
    method: string,
    path: string,
    params: URLSearchParams,
    body: Record<string, unknown>,
  ): Answer | undefined {
    let m: RegExpExecArray | null;
    if (method === "GET" && (m = /^\/git\/ref\/heads\/(.+)$/.exec(path))) {
      const sha = this.head(m[1]!);
      return sha
        ? { status: 200, body: { ref: `refs/heads/${m[1]}`, object: { sha, type: "commit" } } }
        : { status: 404, body: { message: "Not Found" } };
    }
    if (method === "POST" && path === "/git/refs") {
      const ref = String(body.ref);
      if (this.git(["for-each-ref", ref]) !== "")
        return { status: 422, body: { message: "Reference already exists" } };
      this.git(["update-ref", ref, String(body.sha), ""]);
      return { status: 201, body: { ref, object: { sha: body.sha } } };
    }
    if (method === "PATCH" && (m = /^\/git\/refs\/(heads\/.+)$/.exec(path))) {
      const ref = `refs/${m[1]}`;
      const old = this.git(["rev-parse", ref]);
      const sha = String(body.sha);
      if (body.force === true) this.forcedUpdates++;
      else if (!this.isAncestor(old, sha))
        return { status: 422, body: { message: "Update is not a fast forward" } };
      this.git(["update-ref", ref, sha, old]);
      return { status: 200, body: { ref, object: { sha } } };
    }
    if (method === "GET" && (m = /^\/git\/commits\/([0-9a-f]{40})$/.exec(path))) {
      return { status: 200, body: this.commit(m[1]!) };
    }
    if (method === "POST" && path === "/git/blobs") {
      return {
        status: 201,
        body: { sha: this.git(["hash-object", "-w", "--stdin"], { input: String(body.content) }) },
      };
    }
    if (method === "POST" && path === "/git/trees") return { status: 201, body: { sha: this.tree(body) } };
    if (method === "POST" && path === "/git/commits") {
      const parents = (body.parents as string[]).flatMap((p) => ["-p", p]);
      const sha = this.git(["commit-tree", String(body.tree), ...parents, "-F", "-"], {
        input: String(body.message),
      });
      return { status: 201, body: this.commit(sha) };
    }
    if (
      (m = /^\/pulls\/(\d+)(\/files|\/reviews)?$/.exec(path)) &&
      (method === "GET" || m[2] === "/reviews")
    ) {
      const pr = this.pulls.find((p) => p.number === Number(m![1]));
      if (!pr) return { status: 404, body: { message: "Not Found" } };
      if (!m[2]) return { status: 200, body: this.pullJson(pr) };
      if (m[2] === "/files") return { status: 200, body: this.pullFiles(pr) };
      if (method === "GET")
        return {
          status: 200,
          body: this.reviews.filter((r) => r.pull === pr.number).map((r) => this.reviewJson(r)),
        };
      return this.createReview(pr, body);
    }
    if (
      (m = /^\/issues\/(\d+)\/labels(?:\/(.+))?$/.exec(path)) &&
      (method === "POST" || method === "DELETE")
    ) {
      const pr = this.pulls.find((p) => p.number === Number(m![1]));
      if (!pr) return { status: 404, body: { message: "Not Found" } };
      const labels = new Set(pr.labels ?? []);
      if (method === "POST") for (const l of body.labels as string[]) labels.add(l);
      else if (!labels.delete(m[2]!)) return { status: 404, body: { message: "Label does not exist" } };
      pr.labels = [...labels];
      return { status: 200, body: pr.labels.map((name) => ({ name })) };
    }
    if (method === "GET" && path === "/pulls") {
      const [owner, head] = params.get("head")?.split(":") ?? [];
      const state = params.get("state") ?? "open";
      const found = this.pulls.filter(
        (p) =>
          (!head || (p.head === head && (p.fork?.owner ?? this.repo.owner) === owner)) &&
          (state === "all" || p.state === state),
      );
      return { status: 200, body: found.map((p) => this.pullJson(p)) };
    }
    if (method === "POST" && path === "/pulls") {
      const head = String(body.head);
      if (this.pulls.some((p) => p.head === head && p.state === "open")) {
        return {
          status: 422,
          body: { message: `A pull request already exists for ${this.repo.owner}:${head}.` },
        };
      }
      if (!this.head(head)) return { status: 422, body: { message: "head does not exist" } };
      const pr: Pull = {
        number: this.nextId++,
        head,
        base: String(body.base),
        title: String(body.title),
        body: String(body.body),
        state: "open",
        author: { login: BOT.name, type: "Bot" },
      };
      this.pulls.push(pr);
      return { status: 201, body: this.pullJson(pr) };
    }
    if (method === "PATCH" && (m = /^\/pulls\/(\d+)$/.exec(path))) {
      const pr = this.pulls.find((p) => p.number === Number(m![1]));
      if (!pr) return { status: 404, body: { message: "Not Found" } };
      if (typeof body.title === "string") pr.title = body.title;
      if (typeof body.body === "string") pr.body = body.body;
      if (body.state === "closed" || body.state === "open") pr.state = body.state;
      return { status: 200, body: this.pullJson(pr) };
    }
    if (method === "GET" && (m = /^\/commits\/([0-9a-f]{40})\/pulls$/.exec(path))) {
      const sha = m[1]!;
      return {
        status: 200,
        body: this.pulls.filter((p) => this.pullHead(p) === sha).map((p) => this.pullJson(p)),
      };
    }
    if (method === "GET" && (m = /^\/issues\/(\d+)\/comments$/.exec(path))) {
      // Pages as GitHub gives them: per_page (30 by default, 100 at most), and a link to the next one.
      const issue = Number(m[1]);
      const list = this.comments.filter((c) => c.issue === issue);
      const perPage = Math.min(Number(params.get("per_page") ?? 30), 100);
      const page = Number(params.get("page") ?? 1);
      const next = page * perPage < list.length;
      const prefix = `/repos/${this.repo.owner}/${this.repo.name}`;
      return {
        status: 200,
        body: list.slice((page - 1) * perPage, page * perPage).map((c) => this.commentJson(c)),
        ...(next
          ? {
              headers: {
                link: `<${prefix}/issues/${issue}/comments?per_page=${perPage}&page=${page + 1}>; rel="next"`,
              },
            }
          : {}),
      };
    }
    if (method === "GET" && (m = /^\/issues\/comments\/(\d+)$/.exec(path))) {
      const c = this.comments.find((x) => x.id === Number(m![1]));
      return c ? { status: 200, body: this.commentJson(c) } : { status: 404, body: { message: "Not Found" } };
    }
    if (method === "POST" && (m = /^\/issues\/(\d+)\/comments$/.exec(path))) {
      const c: IssueComment = {
        id: this.nextId++,
        issue: Number(m[1]),
        body: String(body.body),
        user: { login: BOT.name, type: "Bot" },
        app: this.appId,
      };
      this.comments.push(c);
      return { status: 201, body: this.commentJson(c) };
    }
    if (method === "PATCH" && (m = /^\/issues\/comments\/(\d+)$/.exec(path))) {
      const c = this.comments.find((x) => x.id === Number(m![1]));
      if (!c) return { status: 404, body: { message: "Not Found" } };
      c.body = String(body.body);
      return { status: 200, body: this.commentJson(c) };
    }
    if (method === "GET" && (m = /^\/commits\/([0-9a-f]{40})\/check-runs$/.exec(path))) {
      const runs = this.checkRuns.get(m[1]!) ?? [];
      return {
        status: 200,
        body: { total_count: runs.length, check_runs: runs.map((r, i) => ({ id: i + 1, ...r })) },
      };
    }
    if (method === "GET" && (m = /^\/compare\/([0-9a-f]{40})\.\.\.([0-9a-f]{40})$/.exec(path))) {
      const [base, head] = [m[1]!, m[2]!];
      const status =
        base === head
          ? "identical"
          : this.isAncestor(base, head)
            ? "ahead"
            : this.isAncestor(head, base)
              ? "behind"
              : "diverged";
      return { status: 200, body: { status, commits: [] } };
    }
    return undefined;
  }

  /** The head commit of a pull request: its branch's tip here, or the fork's commit. */
  pullHead(p: Pull): string | undefined {
    return p.fork ? p.fork.sha : this.head(p.head);
  }

  /** GET /pulls/N/files: each changed file with its hunks (`patch`), from git's diff against the merge base. */
  pullFiles(p: Pull): { filename: string; status: string; patch?: string }[] {
    const head = this.pullHead(p)!;
    const base = this.git(["merge-base", this.head(p.base)!, head]);
    const statuses: Record<string, string> = { A: "added", D: "removed", M: "modified" };
    return this.git(["diff", "--no-renames", "--name-status", base, head])
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [status = "M", filename = ""] = line.split("\t");
        const diff = this.git(["diff", "--no-color", "-U3", base, head, "--", filename]);
        const at = diff.indexOf("\n@@");
        return {
          filename,
          status: statuses[status[0]!] ?? "modified",
          ...(at >= 0 ? { patch: diff.slice(at + 1) } : {}),
        };
      });
  }

  /**
   * POST /pulls/N/reviews, validated as GitHub does: every comment's line (and start_line)
   * must lie within one hunk of the pull request's diff on the side it names, else 422.
   */
  private createReview(p: Pull, body: Record<string, unknown>): Answer {
    const hunks = new Map(
      this.pullFiles(p).map((f) => {
        const [parsed] = parsePatch(`--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ""}\n`);
        return [f.filename, (parsed?.hunks ?? []).map((h) => [h.newStart, h.newStart + h.newLines - 1])];
      }),
    );
    const comments = (body.comments ?? []) as PullReview["comments"];
    for (const c of comments) {
      const within = (hunks.get(c.path) ?? []).some(
        ([start, end]) => start! <= (c.start_line ?? c.line) && c.line <= end!,
      );
      const ordered = c.start_line === undefined || c.start_line < c.line;
      if (c.side !== "RIGHT" || !within || !ordered)
        return {
          status: 422,
          body: {
            message: "Unprocessable Entity",
            errors: ["Pull request review thread line must be part of the diff"],
          },
        };
    }
    const review: PullReview = {
      id: this.nextId++,
      pull: p.number,
      body: String(body.body ?? ""),
      commitId: String(body.commit_id),
      event: String(body.event ?? "PENDING"),
      comments,
    };
    this.reviews.push(review);
    return { status: 200, body: this.reviewJson(review) };
  }

  private reviewJson(r: PullReview) {
    return {
      id: r.id,
      body: r.body,
      commit_id: r.commitId,
      state: r.event === "COMMENT" ? "COMMENTED" : r.event,
      user: { login: BOT.name, type: "Bot" },
      html_url: `https://github.example/${this.repo.owner}/${this.repo.name}/pull/${r.pull}#pullrequestreview-${r.id}`,
    };
  }

  private isAncestor(a: string, b: string): boolean {
    try {
      this.git(["merge-base", "--is-ancestor", a, b]);
      return true;
    } catch {
      return false;
    }
  }

  /** POST /git/trees: entries with inline content or a blob sha (null deletes) over base_tree. */
  private tree(body: Record<string, unknown>): string {
    const env = { GIT_INDEX_FILE: join(this.scratch, `index-${this.nextId++}`) };
    if (body.base_tree) this.git(["read-tree", String(body.base_tree)], { env });
    else this.git(["read-tree", "--empty"], { env });
    const entries = body.tree as {
      path: string;
      mode: string;
      type: string;
      sha?: string | null;
      content?: string;
    }[];
    for (const e of entries) {
      if (!["100644", "100755", "120000", "160000", "040000"].includes(e.mode))
        throw new Error(`bad mode ${e.mode}`);
      if (e.sha === null) {
        this.git(["update-index", "--force-remove", "--", e.path], { env });
        continue;
      }
      const sha =
        e.content !== undefined ? this.git(["hash-object", "-w", "--stdin"], { input: e.content }) : e.sha!;
      this.git(["update-index", "--add", "--cacheinfo", `${e.mode},${sha},${e.path}`], { env });
    }
    return this.git(["write-tree"], { env });
  }

  private commit(sha: string) {
    const raw = this.git(["cat-file", "commit", sha]);
    const [header = "", ...rest] = raw.split("\n\n");
    const lines = header.split("\n");
    const person = (kind: string) => {
      const line = lines.find((l) => l.startsWith(`${kind} `)) ?? "";
      const [, name = "", email = "", seconds = "0"] = /^\w+ (.*) <(.*)> (\d+) /.exec(line) ?? [];
      return { name, email, date: new Date(Number(seconds) * 1000).toISOString() };
    };
    return {
      sha,
      tree: { sha: lines.find((l) => l.startsWith("tree "))!.slice(5) },
      parents: lines.filter((l) => l.startsWith("parent ")).map((l) => ({ sha: l.slice(7) })),
      message: rest.join("\n\n"),
      author: person("author"),
      committer: person("committer"),
    };
  }

  private pullJson(p: Pull) {
    const url = `https://github.example/${this.repo.owner}/${this.repo.name}/pull/${p.number}`;
    return {
      number: p.number,
      html_url: url,
      state: p.state,
      title: p.title,
      body: p.body,
      user: p.author ?? { login: "maria", type: "User" },
      head: {
        ref: p.head,
        sha: this.pullHead(p) ?? null,
        repo: { full_name: `${p.fork?.owner ?? this.repo.owner}/${this.repo.name}` },
      },
      base: { ref: p.base, sha: this.head(p.base) ?? null },
      labels: (p.labels ?? []).map((name) => ({ name })),
    };
  }

  private commentJson(c: IssueComment) {
    return {
      id: c.id,
      body: c.body,
      user: c.user,
      performed_via_github_app: c.app === undefined ? null : { id: c.app },
      html_url: `https://github.example/c/${c.id}`,
    };
  }
}
