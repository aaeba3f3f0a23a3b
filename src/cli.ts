import { Command, CommanderError } from "commander";
import { UserError } from "./errors.js";
import { registerExplainCommand } from "./commands/explain.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerWorkerCommand } from "./commands/worker.js";
import { registerFixCommand } from "./commands/fix.js";
import { registerObserveCommand } from "./commands/observe.js";
import { registerLocalizeCommand } from "./commands/localize.js";
import { registerSandboxCommand } from "./commands/sandbox.js";

/**
 * The `hypofix` command. Each subcommand lives beside the layer it drives and
 * registers itself here. Exit codes: 0 success, 1 "ran but found nothing"
 * (no validated patch), 3 nothing to work on (no failing test here, or a flaky
 * one), 2 bad input or infrastructure error.
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
