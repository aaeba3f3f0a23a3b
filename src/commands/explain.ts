import { type Command, Option } from "commander";
import { explainRepository } from "../compose.js";
import { loadConfig } from "../config.js";
import { createLogger } from "../log.js";
import { ENGINE_KINDS, type EngineKind } from "../result.js";
import type { SandboxBackend } from "../sandbox/index.js";

interface ExplainFlags {
  base: string;
  head: string;
  engine: EngineKind;
  sandbox: SandboxBackend | "auto";
  description?: string;
  json?: boolean;
}

/**
 * `hypofix explain <repo-dir> --base <ref> [--head <ref>] [--engine offline|llm]
 * [--sandbox docker|local|auto] [--description <text>] [--json]`: the `/explain`
 * audit of a local repository, as markdown (the reply) or JSON (the audit object).
 * Exit 0 when the audit ran (whatever it found).
 */
export function registerExplainCommand(program: Command): void {
  program
    .command("explain")
    .description("audit a change and its explanation (commit messages) by running both sides of it")
    .argument("<repo-dir>")
    .requiredOption("--base <ref>", "the commit the change starts from")
    .option("--head <ref>", "the commit the change ends at", "HEAD")
    .addOption(
      new Option("--engine <engine>", "how claims are read").choices(ENGINE_KINDS).default("offline"),
    )
    .addOption(
      new Option("--sandbox <backend>", "where to run").choices(["docker", "local", "auto"]).default("auto"),
    )
    .option(
      "--description <text>",
      "the pull request's title and description, checked with the commit messages",
    )
    .option("--json", "print the audit as JSON")
    .action(async (repoDir: string, flags: ExplainFlags) => {
      const config = loadConfig();
      const log = createLogger();
      const outcome = await explainRepository(repoDir, {
        base: flags.base,
        head: flags.head,
        engine: flags.engine,
        backend: flags.sandbox,
        config,
        log,
        ...(flags.description ? { description: flags.description } : {}),
      });
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ verdict: outcome.verdict, audit: outcome.audit }, null, 2)}\n`
          : outcome.markdown,
      );
    });
}
