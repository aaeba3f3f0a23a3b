import { createHmac, randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { JobQueue, connectionFromUrl } from "../src/queue/queue.js";
import { examplePayload, webhookSignature } from "../test/github/payloads.js";
import { hypofix, waitForHttp } from "../test/helpers/hypofix-process.js";
import { appPrivateKey } from "../test/helpers/git.js";
import { RedisServer } from "../test/helpers/redis-server.js";
import type { Benchmark, BenchResult } from "./types.js";

/** Ports from the ops range (TEAM.md). */
const REDIS_PORT = 7440;
const SERVE_PORT = 7441;
const SECRET = "bench-secret";
/** Every REPEAT-th delivery is a redelivery of an earlier event: it must add no job. */
const REPEAT = 5;

/** One signed `workflow_run` delivery of a failed run; distinct `n` give distinct head commits. */
function delivery(n: number): { body: string; signature: string } {
  const payload = examplePayload<{
    workflow_run: { id: number; head_sha: string; conclusion: string | null };
    installation?: { id: number };
  }>("workflow_run", (p) => p.action === "completed");
  payload.workflow_run.conclusion = "failure";
  payload.workflow_run.id = 1_000_000 + n;
  payload.workflow_run.head_sha = createHmac("sha1", "sha").update(String(n)).digest("hex");
  const body = JSON.stringify({ ...payload, installation: { id: 3 } });
  return { body, signature: webhookSignature(body, SECRET) };
}

/**
 * Webhook acknowledgement: signed `workflow_run` deliveries (a failed run each) against
 * `hypofix serve --no-worker` with its own real Redis, driven by autocannon at a fixed
 * rate (200 req/s for 30 s; quick: 100 req/s for 10 s). Latency percentiles are
 * corrected for coordinated omission. Afterwards the queue must hold exactly the
 * distinct events sent: every fifth delivery repeats an earlier event (a redelivery).
 */
const bench: Benchmark = {
  name: "webhook",
  description: "webhook acknowledgement latency under load; no lost or doubled job",
  async run(options): Promise<BenchResult> {
    const rate = options.subset === "full" ? 200 : 100;
    const seconds = options.subset === "full" ? 30 : 10;
    const redis = new RedisServer(REDIS_PORT);
    await redis.start();
    const queueName = `hypofix-bench-${randomUUID()}`;
    const { REDIS_URL: _shared, ...env } = process.env;
    const served = hypofix(["serve", "--no-worker"], {
      ...env,
      APP_ID: "1",
      PRIVATE_KEY: appPrivateKey(),
      WEBHOOK_SECRET: SECRET,
      REDIS_URL: redis.url,
      HYPOFIX_QUEUE_NAME: queueName,
      HOST: "127.0.0.1",
      PORT: String(SERVE_PORT),
      LOG_LEVEL: "warn",
    });
    const queue = new JobQueue(connectionFromUrl(redis.url), queueName);
    try {
      await waitForHttp(`http://127.0.0.1:${SERVE_PORT}/healthz`, served);
      let sent = 0;
      const distinct = new Set<number>();
      const result = await autocannon({
        url: `http://127.0.0.1:${SERVE_PORT}/api/github/webhooks`,
        connections: 20,
        overallRate: rate,
        duration: seconds,
        requests: [
          {
            method: "POST",
            setupRequest: (req) => {
              const i = sent++;
              const n = i % REPEAT === REPEAT - 1 ? Math.floor(i / 2) : i;
              distinct.add(n);
              const { body, signature } = delivery(n);
              return {
                ...req,
                body,
                headers: {
                  "content-type": "application/json",
                  "x-github-event": "workflow_run",
                  "x-github-delivery": randomUUID(),
                  "x-hub-signature-256": signature,
                },
              };
            },
          },
        ],
      });
      // Requests still in flight when the run ended may have enqueued after it: settle first.
      await new Promise((r) => setTimeout(r, 1000));
      const counts = await queue.queue.getJobCounts("waiting", "delayed", "prioritized", "active");
      const queued = Object.values(counts).reduce((a, b) => a + b, 0);
      const answered2xx = result["2xx"];
      const errors = result.errors + result.timeouts + result.non2xx;
      const lat = result.latency;
      return {
        rows: [
          { metric: "rate", value: rate, unit: "req/s" },
          { metric: "requests answered 2xx", value: answered2xx },
          { metric: "errors (non-2xx, socket, timeout)", value: errors, target: "0" },
          { metric: "latency p50", value: lat.p50, unit: "ms" },
          { metric: "latency p99", value: lat.p99, unit: "ms", target: "< 50 ms" },
          { metric: "latency max", value: lat.max, unit: "ms" },
          { metric: "distinct events sent", value: distinct.size },
          { metric: "jobs in the queue", value: queued, target: "= distinct events sent" },
        ],
        data: {
          rate,
          seconds,
          connections: 20,
          sent,
          distinct: distinct.size,
          queued,
          counts,
          latency: lat,
          requests: result.requests,
          errors: { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
          note: "machine shared with other agents; load generator, server and Redis on the same 2 cores",
        },
      };
    } finally {
      served.child.kill("SIGTERM");
      await queue.queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await redis.dispose();
    }
  },
};

export default bench;
