import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { loadConfig } from "../config.js";
import { createLogger } from "../log.js";
import { runFix } from "../pipeline.js";
import { loadRepoConfig } from "../repo-config.js";
import { createFixRun } from "../compose.js";

/** Exit codes of DESIGN.md: 0 validated patch, 1 none, 2 bad input or infrastructure error. */
const EXIT = { fixed: 0, "no-fix": 1, "not-reproduced": 1, flaky: 1, error: 2 } as const;

/**
 * `hypofix fix <repo-dir> [--test <id>]... [--engine offline|llm] [--sandbox ...] [--out <dir>] [--json]`.
 * Writes report.md, patch.diff and result.json to --out; a progress line per phase on stderr.
 */
export function registerFixCommand(program: Command): void {
  program
    .command("fix")
    .description(
      "reproduce a failing test, debug it scientifically, and write a validated patch with its report",
    )
    .argument("<repo-dir>")
    .option(
      "--test <id>",
      "pytest node id of a failing test (repeatable; default: every failing test)",
      collect,
      [],
    )
    .addOption(
      new Option("--engine <engine>", "who writes hypotheses").choices(["offline", "llm"]).default("offline"),
    )
    .addOption(
      new Option("--sandbox <backend>", "where tests run")
        .choices(["auto", "docker", "local"])
        .default("auto"),
    )
    .option("--out <dir>", "where report.md, patch.diff and result.json go", "hypofix-out")
    .option("--json", "print result.json to stdout")
    .action(
      async (
        repoDir: string,
        opts: {
          test: string[];
          engine: "offline" | "llm";
          sandbox: "auto" | "docker" | "local";
          out: string;
          json?: boolean;
        },
      ) => {
        const config = loadConfig();
        const repoConfig = await loadRepoConfig(repoDir);
        const log = createLogger(process.env.LOG_LEVEL ?? "warn");
        const run = createFixRun({ engine: opts.engine, config, repoConfig, log });
        const started = Date.now();
        const outcome = await runFix({
          ...run,
          repoDir: resolve(repoDir),
          tests: opts.test,
          backend: opts.sandbox,
          config,
          repoConfig,
          progress: (line) =>
            process.stderr.write(`hypofix: [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`),
          log,
        });
        const out = resolve(opts.out);
        await mkdir(out, { recursive: true });
        await writeFile(join(out, "report.md"), outcome.report);
        await writeFile(join(out, "patch.diff"), outcome.patch);
        await writeFile(join(out, "result.json"), `${JSON.stringify(outcome.result, null, 2)}\n`);
        process.stderr.write(`hypofix: ${outcome.result.status}: ${outcome.result.reason}\n`);
        process.stderr.write(`hypofix: wrote ${join(opts.out, "report.md")}, patch.diff, result.json\n`);
        if (opts.json) process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
        process.exitCode = EXIT[outcome.result.status];
      },
    );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
