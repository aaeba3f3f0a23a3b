import type { Command } from "commander";
import { runWorker } from "../compose.js";

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
