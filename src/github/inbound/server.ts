import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createNodeMiddleware, type Probot } from "probot";
import { hypofixApp } from "./app.js";
import type { JobQueue } from "../../queue/queue.js";

export const WEBHOOK_PATH = "/api/github/webhooks";

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** A plain status page: queue counts and the latest jobs. */
async function dashboard(queue: JobQueue): Promise<string> {
  const counts = await queue.queue.getJobCounts("waiting", "active", "completed", "failed", "delayed");
  const jobs = await queue.queue.getJobs(["active", "waiting", "completed", "failed"], 0, 19);
  const rows = jobs
    .map((j) => {
      const d = j.data;
      const state = j.failedReason
        ? `failed: ${j.failedReason}`
        : j.finishedOn
          ? "done"
          : j.processedOn
            ? "running"
            : "queued";
      return `<tr><td>${escape(d.kind)}</td><td>${escape(`${d.repo.owner}/${d.repo.name}`)}</td><td><code>${d.headSha?.slice(0, 12) ?? "PR head"}</code></td><td>${escape(state)}</td></tr>`;
    })
    .join("");
  const summary = Object.entries(counts)
    .map(([k, v]) => `${k}: ${v}`)
    .join(" · ");
  return `<!doctype html><meta charset="utf-8"><title>Hypofix</title><h1>Hypofix</h1><p>${summary}</p><table><tr><th>kind</th><th>repository</th><th>sha</th><th>state</th></tr>${rows}</table>`;
}

/** Webhooks at WEBHOOK_PATH (signature checked by Probot), `/healthz`, and the dashboard at `/`. */
export async function startWebhookServer(options: {
  probot: Probot;
  queue: JobQueue;
  ownAppId?: number;
  port: number;
  host?: string;
}): Promise<Server> {
  const webhooks = await createNodeMiddleware(hypofixApp(options.queue, options.ownAppId), {
    probot: options.probot,
    webhooksPath: WEBHOOK_PATH,
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    void (async () => {
      if (await webhooks(req, res)) return;
      if (req.method === "GET" && req.url === "/healthz") {
        const redis = await options.queue.queue.getJobCounts("waiting").then(
          () => "ok",
          () => "unreachable",
        );
        return reply(
          redis === "ok" ? 200 : 503,
          "application/json",
          JSON.stringify({ ok: redis === "ok", redis }),
        );
      }
      if (req.method === "GET" && req.url === "/")
        return reply(200, "text/html; charset=utf-8", await dashboard(options.queue));
      reply(404, "text/plain", "not found\n");
    })().catch((err: unknown) => {
      options.probot.log.error({ err: String(err) }, "request failed");
      if (!res.headersSent) reply(500, "text/plain", "internal error\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "0.0.0.0", resolve));
  return server;
}
