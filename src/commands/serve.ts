import { existsSync } from "node:fs";
import type { Command } from "commander";
import { run as runProbot } from "probot";
import { loadConfig } from "../config.js";
import { createLogger } from "../log.js";
import { metrics } from "../metrics.js";
import { createAppProbot, runWorker } from "../compose.js";
import { RedisProbe } from "../queue/health.js";
import { JobQueue, connectionFromUrl } from "../queue/queue.js";
import { assertRedisReachable } from "../queue/redis.js";
import { BULL_BOARD_PATH, WEBHOOK_PATH, startWebhookServer } from "../inbound/server.js";
import { dockerClient, pingDocker } from "../sandbox/docker.js";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("receive GitHub webhooks (and run a worker in the same process unless --no-worker)")
    .option("--port <n>", "HTTP port (default: PORT or 3000)", (v) => Number.parseInt(v, 10))
    .option("--no-worker", "only receive webhooks; run `hypofix worker` elsewhere")
    .action(async (opts: { port?: number; worker: boolean }) => {
      // Probot's manifest flow writes the new App's credentials to .env; pick them up on restart.
      if (existsSync(".env")) process.loadEnvFile(".env");
      const config = loadConfig();
      const log = createLogger(config.env.LOG_LEVEL);
      const port = opts.port ?? config.env.PORT;
      const host = config.env.HOST;
      if (!config.env.APP_ID || !(config.env.PRIVATE_KEY || config.env.PRIVATE_KEY_PATH)) {
        // No App yet: Probot's setup page registers one from app.yml (GitHub's manifest flow).
        log.info({ host, port }, "no GitHub App configured; serving Probot's setup page");
        await runProbot(() => undefined, {
          env: { ...process.env, HOST: host, PORT: String(port) },
          log: log.child({ name: "probot" }),
        });
        return new Promise<never>(() => undefined);
      }
      await assertRedisReachable(config.env.REDIS_URL);
      const probot = createAppProbot(config, log, true);
      const appId = Number(config.env.APP_ID);
      // The queue logs one line per Redis state change.
      const queue = new JobQueue(connectionFromUrl(config.env.REDIS_URL), config.env.HYPOFIX_QUEUE_NAME, log);
      const redis = new RedisProbe(config.env.REDIS_URL);
      metrics.observeQueue(() => queue.queue.getJobCounts("waiting", "active", "delayed", "failed"));
      const dashboard =
        config.env.HYPOFIX_DASHBOARD_USER && config.env.HYPOFIX_DASHBOARD_PASSWORD
          ? { user: config.env.HYPOFIX_DASHBOARD_USER, password: config.env.HYPOFIX_DASHBOARD_PASSWORD }
          : undefined;
      await startWebhookServer({
        probot,
        queue,
        ownAppId: appId,
        port,
        host,
        metrics,
        log,
        checks: {
          redis: () => redis.reachable(),
          // A receiver without a worker needs no Docker engine.
          ...(opts.worker ? { docker: () => pingDocker(dockerClient(), 1000) } : {}),
        },
        ...(dashboard ? { dashboard } : {}),
      });
      log.info(
        { host, port, webhooks: WEBHOOK_PATH, dashboard: dashboard ? ["/", BULL_BOARD_PATH] : "off" },
        "listening for GitHub webhooks",
      );
      if (opts.worker) await runWorker();
      await new Promise<never>(() => undefined);
    });
}
