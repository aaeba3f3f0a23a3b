import type { Command } from "commander";
import { createProbot } from "probot";
import { loadConfig } from "../config.js";
import { createLogger } from "../log.js";
import { runWorker } from "../compose.js";
import { JobQueue, connectionFromUrl } from "../queue/queue.js";
import { assertRedisReachable } from "../queue/redis.js";
import { appCredentials } from "../github/outbound/app-credentials.js";
import { WEBHOOK_PATH, startWebhookServer } from "../github/inbound/server.js";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("receive GitHub webhooks (and run a worker in the same process unless --no-worker)")
    .option("--port <n>", "HTTP port (default: PORT or 3000)", (v) => Number.parseInt(v, 10))
    .option("--no-worker", "only receive webhooks; run `hypofix worker` elsewhere")
    .action(async (opts: { port?: number; worker: boolean }) => {
      const config = loadConfig();
      const log = createLogger(config.env.LOG_LEVEL);
      await assertRedisReachable(config.env.REDIS_URL);
      const { appId, privateKey, webhookSecret } = appCredentials(config, true);
      const probot = createProbot({
        overrides: { appId, privateKey, secret: webhookSecret, log: log.child({ name: "probot" }) },
      });
      const queue = new JobQueue(connectionFromUrl(config.env.REDIS_URL), config.env.HYPOFIX_QUEUE_NAME);
      const port = opts.port ?? config.env.PORT;
      await startWebhookServer({ probot, queue, ownAppId: appId, port });
      log.info({ port, webhooks: WEBHOOK_PATH }, "listening for GitHub webhooks");
      if (opts.worker) await runWorker(1);
      await new Promise<never>(() => undefined);
    });
}
