import { type Command, Option } from "commander";
import { loadConfig } from "../config.js";
import { UserError } from "../errors.js";
import { withWorkspace } from "../compose.js";
import { createLogger } from "../log.js";
import type { SandboxBackend } from "../sandbox/index.js";

/** Exit code for a command killed at its timeout, as GNU timeout reports it. */
export const TIMEOUT_EXIT_CODE = 124;
/** Exit code for a command killed otherwise (memory limit, signal), as a shell reports SIGKILL. */
export const KILLED_EXIT_CODE = 137;

/**
 * `hypofix sandbox <repo-dir> [--sandbox docker|local|auto] [--timeout <ms>] -- <command...>`:
 * runs one command in a fresh sandbox over a copy of the repository, prints its
 * stdout and stderr, and exits with its exit code (124 when it timed out, 137
 * when it was killed otherwise).
 */
export function registerSandboxCommand(program: Command): void {
  program
    .command("sandbox")
    .description(
      "run one command in a fresh sandbox over a copy of a repository; exits with its exit code (124 on timeout, 137 when killed)",
    )
    .argument("<repo-dir>")
    .argument("<command...>", "the command and its arguments (put -- before it)")
    .addOption(
      new Option("--sandbox <backend>", "where to run").choices(["docker", "local", "auto"]).default("auto"),
    )
    .option("--timeout <ms>", "wall-clock limit (default: HYPOFIX_SANDBOX_TIMEOUT_MS)")
    .action(
      async (
        repoDir: string,
        command: string[],
        opts: { sandbox: SandboxBackend | "auto"; timeout?: string },
      ) => {
        const config = loadConfig();
        const timeoutMs = opts.timeout === undefined ? config.sandbox.limits.timeoutMs : Number(opts.timeout);
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
          throw new UserError(`invalid --timeout ${opts.timeout}`, "give a positive number of milliseconds");
        }
        await withWorkspace(
          { repoDir, backend: opts.sandbox, config, log: createLogger() },
          async ({ sandbox }) => {
            const res = await sandbox.exec(command, { timeoutMs });
            process.stdout.write(res.stdout);
            process.stderr.write(res.stderr);
            if (res.timedOut) {
              process.stderr.write(`hypofix: command timed out after ${timeoutMs} ms and was killed\n`);
              process.exitCode = TIMEOUT_EXIT_CODE;
            } else if (res.exitCode === null) {
              process.stderr.write("hypofix: command was killed (memory limit or a signal)\n");
              process.exitCode = KILLED_EXIT_CODE;
            } else {
              process.exitCode = res.exitCode;
            }
          },
        );
      },
    );
}
