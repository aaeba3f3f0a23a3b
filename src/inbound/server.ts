import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import express from "express";
import { createNodeMiddleware, type Probot } from "probot";
import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { JobQueue } from "../queue/queue.js";
import { hypofixApp } from "./app.js";
import { basicAuthMatches, type Credentials } from "./basic-auth.js";

export const WEBHOOK_PATH = "/api/github/webhooks";
export const BULL_BOARD_PATH = "/admin/queues";

/** Named reachability checks for `/readyz` (e.g. redis, docker); all must pass. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

const pathOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0] ?? "/";

function reply(res: ServerResponse, status: number, type: string, body: string): true {
  res.writeHead(status, { "content-type": type });
  res.end(body);
  return true;
}

/** A plain status page: queue counts and the latest jobs (private: behind the dashboard's password). */
async function statusPage(queue: JobQueue): Promise<string> {
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
      return `<tr><td>${escape(d.kind)}</td><td>${escape(`${d.repo.owner}/${d.repo.name}`)}</td><td><code>${escape(d.headSha?.slice(0, 12) ?? "PR head")}</code></td><td>${escape(state)}</td></tr>`;
    })
    .join("");
  const summary = Object.entries(counts)
    .map(([k, v]) => `${k}: ${v}`)
    .join(" · ");
  return `<!doctype html><meta charset="utf-8"><title>Hypofix</title><h1>Hypofix</h1><p>${summary} · <a href="${BULL_BOARD_PATH}">queues</a></p><table><tr><th>kind</th><th>repository</th><th>sha</th><th>state</th></tr>${rows}</table>`;
}

/** `/healthz` (the process answers), `/readyz` (every check passes, else 503) and `/metrics`. */
export function probeRoutes(options: { metrics?: Metrics; checks: ReadinessChecks }): Handler {
  return async (req, res) => {
    if (req.method !== "GET") return false;
    switch (pathOf(req)) {
      case "/healthz":
        return reply(res, 200, "application/json", JSON.stringify({ ok: true }));
      case "/readyz": {
        const names = Object.keys(options.checks);
        const results = await Promise.all(names.map((n) => options.checks[n]!().catch(() => false)));
        const checks = Object.fromEntries(names.map((n, i) => [n, results[i] ? "ok" : "unreachable"]));
        const ok = results.every(Boolean);
        return reply(res, ok ? 200 : 503, "application/json", JSON.stringify({ ok, checks }));
      }
      case "/metrics":
        if (!options.metrics) return false;
        return reply(
          res,
          200,
          options.metrics.registry.contentType,
          await options.metrics.registry.metrics(),
        );
      default:
        return false;
    }
  };
}

/** The status page at `/` and Bull Board under BULL_BOARD_PATH, behind basic auth. */
function dashboardRoutes(queue: JobQueue, credentials: Credentials): Handler {
  const board = new ExpressAdapter();
  board.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(queue.queue)], serverAdapter: board });
  const app = express();
  app.disable("x-powered-by");
  app.use(BULL_BOARD_PATH, board.getRouter() as express.Router);
  return async (req, res) => {
    const path = pathOf(req);
    const isBoard = path === BULL_BOARD_PATH || path.startsWith(`${BULL_BOARD_PATH}/`);
    if (!isBoard && !(path === "/" && req.method === "GET")) return false;
    if (!basicAuthMatches(req.headers.authorization, credentials)) {
      res.writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Basic realm="hypofix"' });
      res.end("authentication required\n");
      return true;
    }
    if (isBoard) {
      await new Promise<void>((resolve) => {
        res.once("finish", resolve);
        res.once("close", resolve);
        app(req as express.Request, res as express.Response, () => {
          reply(res, 404, "text/plain", "not found\n");
        });
      });
      return true;
    }
    return reply(res, 200, "text/html; charset=utf-8", await statusPage(queue));
  };
}

export interface WebhookServerOptions {
  probot: Probot;
  queue: JobQueue;
  ownAppId?: number;
  port: number;
  /** Probot's default is localhost; containers bind 0.0.0.0. */
  host?: string;
  /** Basic-auth credentials for `/` and BULL_BOARD_PATH; absent: both answer 404 (they show private data). */
  dashboard?: Credentials;
  metrics?: Metrics;
  /** For `/readyz`; default: none (always ready once listening). */
  checks?: ReadinessChecks;
  log?: Logger;
}

/** Serves `handlers` in order, 404 when none answers; a failing handler is one log line and a 500. */
export async function listen(
  handlers: Handler[],
  options: { port: number; host?: string; log?: Logger },
): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      for (const handle of handlers) if (await handle(req, res)) return;
      reply(res, 404, "text/plain", "not found\n");
    })().catch((err: unknown) => {
      options.log?.error(
        { path: pathOf(req), err: err instanceof Error ? err.message : String(err) },
        "request failed",
      );
      if (!res.headersSent) reply(res, 500, "text/plain", "internal error\n");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "localhost", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

/** Webhooks at WEBHOOK_PATH (signature checked by Probot), the probes, and the dashboard when configured. */
export async function startWebhookServer(options: WebhookServerOptions): Promise<Server> {
  const webhooks = await createNodeMiddleware(hypofixApp(options.queue, options.ownAppId), {
    probot: options.probot,
    webhooksPath: WEBHOOK_PATH,
  });
  const handlers: Handler[] = [
    async (req, res) => Boolean(await webhooks(req, res)),
    probeRoutes({ checks: options.checks ?? {}, ...(options.metrics ? { metrics: options.metrics } : {}) }),
  ];
  if (options.dashboard) handlers.push(dashboardRoutes(options.queue, options.dashboard));
  return listen(handlers, {
    port: options.port,
    ...(options.host ? { host: options.host } : {}),
    log: options.log ?? options.probot.log,
  });
}
