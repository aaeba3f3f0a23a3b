import { randomUUID } from "node:crypto";
import { deliveryHeaders, examplePayload } from "../test/github/payloads.js";
import { hypofix, waitForHttp } from "../test/helpers/hypofix-process.js";
import { BankApp, INSTALLATION, REPO } from "../test/ops/bank-app.js";
import { summarize } from "./lib/stats.js";
import type { Benchmark, BenchResult } from "./types.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PORT = 7450;
const SECRET = "bench-secret";

/** A signed failed `workflow_run` delivery for the head of main of `octo/<name>`. */
function failedRun(name: string, sha: string): { body: string; headers: Record<string, string> } {
  const payload = examplePayload<Record<string, unknown> & { workflow_run: Record<string, unknown> }>(
    "workflow_run",
    (p) => p.action === "completed",
  );
  const repository = {
    ...(payload.repository as Record<string, unknown>),
    name,
    full_name: `${REPO.owner}/${name}`,
    owner: { ...(payload.repository as { owner: object }).owner, login: REPO.owner },
  };
  payload.repository = repository;
  Object.assign(payload.workflow_run, {
    conclusion: "failure",
    head_sha: sha,
    head_branch: "main",
    head_repository: repository,
    pull_requests: [],
  });
  const body = JSON.stringify({ ...payload, installation: { id: INSTALLATION } });
  return { body, headers: deliveryHeaders("workflow_run", body, SECRET) };
}

/**
 * Time from a failed `workflow_run` webhook to the fix pull request: `hypofix serve`
 * with its in-process worker and sandbox pool (HYPOFIX_SANDBOX_POOL_SIZE=1), the
 * offline engine, the bank example, GitHub on loopback (GitBackedGitHub: real git
 * objects and refs). One repository per run, one after the other, so each run
 * starts from a warm pool; the first also pays the worker's warm-up.
 */
const bench: Benchmark = {
  name: "webhook-to-pr",
  description: "seconds from a failed-CI webhook to the fix pull request (small repo, offline engine)",
  async run(options): Promise<BenchResult> {
    const runs = options.subset === "full" ? 5 : 3;
    const app = new BankApp(runs);
    await app.start();
    const queueName = `hypofix-bench-pr-${randomUUID()}`;
    const served = hypofix(
      ["serve"],
      app.env({
        WEBHOOK_SECRET: SECRET,
        REDIS_URL,
        HYPOFIX_QUEUE_NAME: queueName,
        HOST: "127.0.0.1",
        PORT: String(PORT),
        HYPOFIX_SANDBOX_POOL_SIZE: "1",
      }),
    );
    try {
      await waitForHttp(`http://127.0.0.1:${PORT}/healthz`, served);
      // Let the pool start its first sandbox, as a worker that has been up a while would have.
      await new Promise((r) => setTimeout(r, 5000));
      const seconds: number[] = [];
      for (const [i, repo] of app.repos.entries()) {
        const { body, headers } = failedRun(repo.name, repo.sha);
        const started = performance.now();
        const res = await fetch(`http://127.0.0.1:${PORT}/api/github/webhooks`, {
          method: "POST",
          headers,
          body,
        });
        if (!res.ok) throw new Error(`webhook answered ${res.status}`);
        const until = Date.now() + options.timeoutMs;
        while (repo.gitHub.pulls.length === 0) {
          if (Date.now() > until)
            throw new Error(`no pull request for run ${i}\n${served.output().slice(-4000)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        seconds.push(Math.round((performance.now() - started) / 100) / 10);
      }
      const s = summarize(seconds);
      const metrics = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
      const phases = metrics
        .split("\n")
        .filter((l) => /^hypofix_phase_duration_seconds_sum|^hypofix_sandbox_starts_total/.test(l));
      return {
        rows: [
          { metric: "webhook → PR, median", value: s.median, unit: "s", target: "≤ 10 s" },
          { metric: "webhook → PR, min", value: s.min, unit: "s" },
          { metric: "webhook → PR, max", value: s.max, unit: "s" },
          { metric: "runs", value: seconds.length },
        ],
        data: { seconds, summary: s, phases, note: "2 cores shared with other agents' work" },
      };
    } finally {
      served.child.kill("SIGTERM");
      await app.close();
    }
  },
};

export default bench;
