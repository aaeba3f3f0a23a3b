import { Command, CommanderError } from "commander";
import { UserError } from "./errors.js";
import { registerExplainCommand } from "./audit/command.js";
import { registerServeCommand } from "./github/command.js";
import { registerWorkerCommand } from "./queue/command.js";
import { registerFixCommand } from "./debug/command.js";
import { registerObserveCommand } from "./lang/python/command.js";
import { registerLocalizeCommand } from "./localize/command.js";
import { registerSandboxCommand } from "./sandbox/command.js";

/**
 * The `hypofix` command. Each subcommand lives beside the layer it drives and
 * registers itself here. Exit codes: 0 success, 1 "ran but found nothing"
 * (e.g. no validated patch), 2 bad input or infrastructure error.
 */
export function buildProgram(): Command {
  const program = new Command("hypofix")
    .description("Turns red CI into explained, audited fixes.")
    .showHelpAfterError()
    .exitOverride();
  registerSandboxCommand(program);
  registerObserveCommand(program);
  registerFixCommand(program);
  registerExplainCommand(program);
  registerLocalizeCommand(program);
  registerServeCommand(program);
  registerWorkerCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UserError) {
      process.stderr.write(`hypofix: ${err.oneLine()}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`hypofix: internal error: ${message}\n`);
    if (process.env.HYPOFIX_DEBUG) console.error(err);
    return 2;
  }
}

process.exitCode = await main(process.argv);
