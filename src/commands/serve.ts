import type { Command } from "commander";
import { loadConfig } from "../config.js";
import { createLogger } from "../log.js";
import { createAppProbot, runWorker } from "../compose.js";
import { JobQueue, connectionFromUrl } from "../queue/queue.js";
import { assertRedisReachable } from "../queue/redis.js";
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
      const probot = createAppProbot(config, log, true);
      const appId = Number(config.env.APP_ID);
      const queue = new JobQueue(connectionFromUrl(config.env.REDIS_URL), config.env.HYPOFIX_QUEUE_NAME, log);
      const port = opts.port ?? config.env.PORT;
      await startWebhookServer({ probot, queue, ownAppId: appId, port });
      log.info({ port, webhooks: WEBHOOK_PATH }, "listening for GitHub webhooks");
      if (opts.worker) await runWorker(1);
      await new Promise<never>(() => undefined);
    });
}
