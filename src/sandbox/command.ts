import type { Command } from "commander";

/** `hypofix sandbox <repo-dir> [--sandbox docker|local] -- <command...>`. Implemented with the sandbox backends. */
export function registerSandboxCommand(program: Command): void {
  program
    .command("sandbox")
    .description("run one command in a fresh sandbox over a copy of a repository")
    .argument("<repo-dir>")
    .argument("<command...>")
    .option("--sandbox <backend>", "docker | local | auto", "auto");
}
