import type { Command } from "commander";
import { createProbot } from "probot";
import { loadConfig } from "../config.js";
import { appCredentials } from "../github/app-credentials.js";
import { createLogger } from "../log.js";
import { createJobProcessor } from "./processor.js";
import { connectionFromUrl } from "./queue.js";
import { assertRedisReachable } from "./redis.js";
import { closeOnSignals, startWorker } from "./worker.js";
import { realProcessorDeps } from "./wiring.js";

/** Starts a worker in this process; `hypofix serve` uses it too unless --no-worker. */
export async function runWorker(concurrency: number): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.env.LOG_LEVEL);
  await assertRedisReachable(config.env.REDIS_URL);
  const { appId, privateKey } = appCredentials(config, false);
  // createProbot reads GHE_HOST/GHE_PROTOCOL for GitHub Enterprise Server.
  const probot = createProbot({ overrides: { appId, privateKey, log: log.child({ name: "probot" }) } });
  const worker = startWorker({
    connection: connectionFromUrl(config.env.REDIS_URL),
    queueName: config.env.HYPOFIX_QUEUE_NAME,
    processor: createJobProcessor(realProcessorDeps(probot, config, log)),
    log,
    concurrency,
  });
  closeOnSignals(worker, log);
  log.info({ concurrency }, "worker waiting for jobs");
}

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("take jobs from the queue: reproduce, debug, validate, audit, publish")
    .option("--concurrency <n>", "jobs at once (each gets its own sandbox)", (v) => Number.parseInt(v, 10), 1)
    .action(async (opts: { concurrency: number }) => {
      await runWorker(opts.concurrency);
      // The worker keeps the process alive until a signal closes it.
      await new Promise<never>(() => undefined);
    });
}
