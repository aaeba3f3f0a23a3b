import { ProbotOctokit } from "probot";
import { publishFix, type FixPullRequest, type GitHubClient } from "../src/outbound/publish.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "../test/github/fix-repo.js";
import { git } from "../test/helpers/git.js";
import { summarize } from "./lib/stats.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const ref = { owner: "octo", repo: "calc" };
const WRITE = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/**
 * The sequence Hypofix published with before this benchmark's change, replayed request
 * for request as the baseline: one blob per file, a read of the base commit for its tree,
 * the tree, the commit, the ref, the pull request.
 */
async function blobPerFile(octokit: GitHubClient, fix: FixPullRequest, branch: string): Promise<void> {
  const tree = await Promise.all(
    fix.files.map(async (f) => {
      const { data } = await octokit.rest.git.createBlob({
        ...ref,
        content: f.content ?? "",
        encoding: "utf-8",
      });
      return { path: f.path, mode: "100644" as const, type: "blob" as const, sha: data.sha };
    }),
  );
  const { data: base } = await octokit.rest.git.getCommit({ ...ref, commit_sha: fix.baseSha });
  const { data: newTree } = await octokit.rest.git.createTree({ ...ref, base_tree: base.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...ref,
    message: fix.title,
    tree: newTree.sha,
    parents: [fix.baseSha],
  });
  await octokit.rest.git.createRef({ ...ref, ref: `refs/heads/${branch}`, sha: commit.sha });
  await octokit.rest.pulls.create({
    ...ref,
    head: branch,
    base: fix.baseBranch,
    title: fix.title,
    body: fix.body,
  });
}

/**
 * API writes and wall time to publish one validated fix, against the git-backed fake
 * GitHub on loopback with Probot's own throttling on (it spaces writes about 1 s apart,
 * which is what dominates on GitHub too): the old blob-per-file sequence, the new one
 * (a tree with inline content), and a re-run after the pull request exists.
 */
const bench: Benchmark = {
  name: "publish",
  description: "GitHub API writes and time per published fix: blob per file (before) vs inline tree (after)",
  async run(options: BenchOptions): Promise<BenchResult> {
    const rounds = options.subset === "full" ? 8 : 3;
    const modules = 3;
    const files = Object.fromEntries(
      Array.from({ length: modules }, (_, i) => [`calc/m${i}.py`, BUGGY.replace("add", `add${i}`)]),
    );
    const repo = new FixRepo(files);
    await repo.start();
    const base = repo.head("main");
    const octokit = new ProbotOctokit({
      auth: { token: "ghs_bench" },
      baseUrl: repo.octokit.request.endpoint.DEFAULTS.baseUrl,
    }) as GitHubClient;
    const patchOf = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        diffOf(`calc/m${i}.py`, BUGGY.replace("add", `add${i}`), FIXED.replace("add", `add${i}`)),
      ).join("");
    const samples: Record<string, { ms: number[]; writes: number[] }> = {};
    const measure = async (name: string, once: () => Promise<unknown>) => {
      const from = repo.server.requests.length;
      const started = performance.now();
      await once();
      const entry = (samples[name] ??= { ms: [], writes: [] });
      entry.ms.push(performance.now() - started);
      entry.writes.push(repo.server.requests.slice(from).filter((r) => WRITE.has(r.method)).length);
    };
    try {
      for (let round = 0; round < rounds; round++) {
        for (const n of [1, modules]) {
          const branch = `r${round}-${n}`;
          git(repo.origin, "branch", branch, base);
          const fix = await repo.fix(base, patchOf(n), { baseBranch: branch });
          await measure(`before, ${n} file(s)`, () => blobPerFile(octokit, fix, `hypofix/old-${branch}`));
          await measure(`after, ${n} file(s)`, () => publishFix(octokit, ref, fix));
          await measure(`after, re-run, ${n} file(s)`, () => publishFix(octokit, ref, fix));
        }
      }
    } finally {
      await repo.dispose();
    }
    const rows: BenchResult["rows"] = [];
    const data: Record<string, unknown> = { rounds };
    for (const [name, s] of Object.entries(samples)) {
      const ms = summarize(s.ms);
      rows.push({ metric: `writes, ${name}`, value: Math.max(...s.writes), unit: "requests" });
      rows.push({ metric: `time, ${name} (median)`, value: Math.round(ms.median), unit: "ms" });
      data[name] = { writes: s.writes, ms: s.ms.map(Math.round), median: ms.median };
    }
    return { rows, data };
  },
};

export default bench;
