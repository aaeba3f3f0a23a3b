import type { Command } from "commander";
import { runWorker } from "../compose.js";
import { loadConfig } from "../config.js";
import { listen, probeRoutes } from "../inbound/server.js";
import { metrics } from "../metrics.js";
import { RedisProbe } from "../queue/health.js";
import { dockerClient, pingDocker } from "../sandbox/docker.js";

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("take jobs from the queue: reproduce, debug, validate, audit, publish")
    .option(
      "--concurrency <n>",
      "jobs at once, each in its own sandbox (default: HYPOFIX_WORKER_CONCURRENCY or 1)",
      (v) => Number.parseInt(v, 10),
    )
    .action(async (opts: { concurrency?: number }) => {
      await runWorker(opts.concurrency);
      const config = loadConfig();
      if (config.env.HYPOFIX_METRICS_PORT !== undefined) {
        const redis = new RedisProbe(config.env.REDIS_URL);
        const probes = probeRoutes({
          metrics,
          checks: { redis: () => redis.reachable(), docker: () => pingDocker(dockerClient(), 1000) },
        });
        await listen([probes], { port: config.env.HYPOFIX_METRICS_PORT, host: config.env.HOST });
      }
      // The worker keeps the process alive until a signal closes it.
      await new Promise<never>(() => undefined);
    });
}
