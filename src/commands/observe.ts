import { type Command, Option } from "commander";
import { withWorkspace } from "../compose.js";
import { loadConfig } from "../config.js";
import { UserError } from "../errors.js";
import { resolveLanguage } from "../lang/registry.js";
import { createLogger } from "../log.js";
import type { SandboxBackend } from "../sandbox/index.js";

/**
 * `hypofix observe <repo-dir> --test <id> --experiment '<experiment>' [--file <path>]
 * [--sandbox auto|docker|local] [--timeout <ms>]`: runs one AutoSD experiment and
 * prints the observation exactly as the model sees it. Exit 2 when the experiment
 * is malformed (the message says why).
 */
export function registerObserveCommand(program: Command): void {
  program
    .command("observe")
    .description("run one debugging experiment against a test and print the observation the model sees")
    .argument("<repo-dir>")
    .requiredOption(
      "--test <id>",
      "id of the failing test, e.g. a pytest node id or test/cart.test.js::Cart > totals",
    )
    .requiredOption(
      "--experiment <experiment>",
      'b file:line ;; c ;; p expr | REPLACE(line, "old", "new") AND ... AND RUN | trace file:function (file.py, src/cart.ts, ...)',
    )
    .option("--file <path>", "file that edits and breakpoints without a file refer to")
    .addOption(
      new Option("--sandbox <backend>", "where to run").choices(["docker", "local", "auto"]).default("auto"),
    )
    .option("--timeout <ms>", "per-run limit (default: HYPOFIX_SANDBOX_TIMEOUT_MS)")
    .action(
      async (
        repoDir: string,
        opts: {
          test: string;
          experiment: string;
          file?: string;
          sandbox: SandboxBackend | "auto";
          timeout?: string;
        },
      ) => {
        const config = loadConfig();
        const timeoutMs = opts.timeout === undefined ? config.sandbox.limits.timeoutMs : Number(opts.timeout);
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
          throw new UserError(`invalid --timeout ${opts.timeout}`, "give a positive number of milliseconds");
        }
        // A malformed experiment needs no sandbox to be explained.
        const language = await resolveLanguage({ repoDir });
        const parsed = language.parseExperiment(opts.experiment);
        if (!parsed.ok) {
          process.stdout.write(`${parsed.error}\n`);
          process.exitCode = 2;
          return;
        }
        const log = createLogger();
        await withWorkspace(
          { repoDir, backend: opts.sandbox, config, log, timeoutMs },
          async ({ runtime }) => {
            const obs = await runtime.observe(opts.test, opts.experiment, {
              timeoutMs,
              ...(opts.file ? { file: opts.file } : {}),
            });
            process.stdout.write(`${obs.observation}\n`);
            if (obs.kind === "invalid") process.exitCode = 2;
          },
        );
      },
    );
}
