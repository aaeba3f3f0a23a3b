import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { startWebhookServer, type WebhookServerOptions } from "../../src/inbound/server.js";
import type { JobQueue } from "../../src/queue/queue.js";
import { appPrivateKey } from "./git.js";

/** The App's HTTP server in this process on 127.0.0.1 (a free port), silent, with no retries towards GitHub. */
export async function startTestServer(
  queue: JobQueue,
  options: Partial<Omit<WebhookServerOptions, "probot" | "queue">> & { secret?: string } = {},
): Promise<{ server: Server; url: string }> {
  const { secret = "s", ...rest } = options;
  const probot = new Probot({
    appId: 1,
    privateKey: appPrivateKey(),
    secret,
    log: pino({ level: "silent" }),
    Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
  });
  const server = await startWebhookServer({ probot, queue, port: 0, host: "127.0.0.1", ...rest });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
