import { type Command, Option } from "commander";
import { createModel, withWorkspace } from "../compose.js";
import { loadConfig } from "../config.js";
import { UserError } from "../errors.js";
import { createLogger } from "../log.js";
import { localize, type Localization } from "../localize/index.js";
import { ENGINE_KINDS, type EngineKind } from "../result.js";
import type { SandboxBackend } from "../sandbox/index.js";
import { repeatable } from "./options.js";

interface LocalizeCliOptions {
  test: string[];
  engine: EngineKind;
  sandbox: SandboxBackend | "auto";
  formula: "ochiai" | "dstar";
  runs: string;
  maxCalls: string;
  json?: boolean;
}

const LINES_SHOWN = 20;

/**
 * `hypofix localize <repo-dir> [--test <id>]... [--engine offline|llm] [--sandbox ...] [--json]`:
 * ranked suspicious functions and lines. Without --test, the suite is run and every
 * failing test is localized. Exit 3 when none of the tests fails here (nothing to localize).
 */
export function registerLocalizeCommand(program: Command): void {
  program
    .command("localize")
    .description("rank the functions and lines most likely responsible for failing tests")
    .argument("<repo-dir>")
    .option("--test <id>", "id of a failing test (repeatable; default: every failing test)", repeatable, [])
    .addOption(
      new Option("--engine <engine>", "offline (SBFL) or llm (AutoFL)")
        .choices(ENGINE_KINDS)
        .default("offline"),
    )
    .addOption(
      new Option("--sandbox <backend>", "where to run").choices(["docker", "local", "auto"]).default("auto"),
    )
    .addOption(
      new Option("--formula <formula>", "SBFL formula").choices(["ochiai", "dstar"]).default("ochiai"),
    )
    .option("--runs <n>", "AutoFL runs (R)", "5")
    .option("--max-calls <n>", "AutoFL function calls per run (N)", "10")
    .option("--json", "print the result as JSON on stdout")
    .action(async (repoDir: string, opts: LocalizeCliOptions) => {
      const runs = positive(opts.runs, "--runs");
      const maxCalls = positive(opts.maxCalls, "--max-calls");
      const config = loadConfig();
      const log = createLogger();
      // Configuration problems surface before a sandbox is started.
      const model = opts.engine === "llm" ? createModel(config, log) : undefined;
      await withWorkspace({ repoDir, backend: opts.sandbox, config, log }, async ({ sandbox, runtime }) => {
        // No --test: the whole suite, like `hypofix fix`.
        const run = await runtime.runTests(opts.test);
        const failing = run.tests.filter((t) => t.outcome === "failed" || t.outcome === "error");
        if (failing.length === 0) {
          const why = run.errors.length > 0 ? run.errors.join("; ") : "they pass here";
          process.stderr.write(`hypofix: no test fails: ${why}\n`);
          process.exitCode = 3;
          return;
        }
        const result = await localize({
          runtime,
          files: sandbox,
          failingTests: failing.map((t) => t.id),
          failures: failing,
          engine: opts.engine,
          formula: opts.formula,
          runs,
          maxCalls,
          log,
          ...(model ? { model } : {}),
        });
        const usage = model?.usage ?? { llmCalls: 0, promptTokens: 0, completionTokens: 0 };
        if (opts.json) {
          const { coverage: _coverage, sbfl: _sbfl, ...rest } = result;
          const out = {
            failingTests: failing.map((t) => t.id),
            ...rest,
            lines: result.lines.slice(0, LINES_SHOWN),
            usage,
          };
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          process.stdout.write(render(result));
        }
      });
    });
}

function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new UserError(`invalid ${flag} ${value}`, "give a positive whole number");
  return n;
}

function render(result: Localization): string {
  const out: string[] = [];
  const by = result.engine === "llm" ? "AutoFL" : `SBFL (${result.sbfl.formula})`;
  out.push(`Suspicious functions, by ${by}; agreement ${result.agreement.toFixed(2)}:`);
  for (const e of result.entries) {
    const where = e.line === undefined ? e.file : `${e.file}:${e.line}`;
    out.push(`${String(e.rank).padStart(3)}. ${e.function}  ${where}  ${e.score.toFixed(2)}  ${e.reason}`);
  }
  out.push("", "Suspicious lines (SBFL):");
  for (const l of result.lines.slice(0, LINES_SHOWN)) {
    out.push(
      `  ${l.file}:${l.line}  ${l.score.toFixed(2)}  ${l.function ?? "<module>"}  (${l.failed} failing, ${l.passed} passing)`,
    );
  }
  for (const note of result.notes) out.push(`note: ${note}`);
  return `${out.join("\n")}\n`;
}
