import type { Command } from "commander";
import { runWorker } from "../compose.js";

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
      // The worker keeps the process alive until a signal closes it.
      await new Promise<never>(() => undefined);
    });
}
