import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { auditPatch } from "../audit/index.js";
import { loadConfig } from "../config.js";
import type { ChatModel } from "../llm/types.js";
import type { Usage } from "../result.js";
import type { DebugEngine } from "./types.js";
import { createPythonRuntime } from "../lang/python/index.js";
import { createLogger } from "../log.js";
import { runFix } from "../pipeline.js";
import { loadRepoConfig } from "../repo-config.js";
import { createChatModel } from "../llm/openai-model.js";
import { createLlmEngine } from "./llm.js";
import { createOfflineEngine } from "./offline.js";

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
        const engine =
          opts.engine === "offline" ? { engine: createOfflineEngine() } : llmEngine(config, repoConfig, log);
        const started = Date.now();
        const outcome = await runFix({
          repoDir: resolve(repoDir),
          tests: opts.test,
          engine: engine.engine,
          backend: opts.sandbox,
          config,
          repoConfig,
          makeRuntime: (sandbox) => createPythonRuntime(sandbox, { log }),
          audit: async (input) =>
            (
              await auditPatch({
                sandbox: input.sandbox,
                runtime: input.runtime,
                patch: input.edits.map((e) => ({ path: e.file, before: e.before, after: e.after })),
                claims: input.explanation,
                failingTests: input.failingTests,
                engine: engine.model ? "llm" : "offline",
                ...(engine.model ? { model: engine.model } : {}),
              })
            ).audit,
          progress: (line) =>
            process.stderr.write(`hypofix: [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`),
          log,
          ...(engine.usage ? { usage: engine.usage } : {}),
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

function llmEngine(
  config: ReturnType<typeof loadConfig>,
  repoConfig: Awaited<ReturnType<typeof loadRepoConfig>>,
  log: ReturnType<typeof createLogger>,
): { engine: DebugEngine; usage?: () => Usage; model?: ChatModel } {
  const model = createChatModel(config, log);
  return {
    engine: createLlmEngine(model, { maxSteps: repoConfig.max_iterations, patches: repoConfig.patches }),
    usage: () => model.usage,
    model,
  };
}
