/** `npm run bench [-- <name>...] [--subset quick|full] [--timeout <ms>] [--corpus ...] [--split ...]
 * [--bug <id>]... [--jobs <n>]`: runs the benchmarks
 * in bench/*.bench.ts (all, or the named ones), prints one table, writes
 * bench/results/<name>.json, and exits 1 when any benchmark failed. */
import { Command, InvalidArgumentError, Option } from "commander";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchOptions } from "./types.js";
import { CORPUS_CHOICES, SPLIT_CHOICES, type CorpusChoice, type SplitChoice } from "./lib/bugs.js";
import { formatTable, listBenchFiles, runBenchFile, writeResult, type Outcome } from "./lib/harness.js";
import { gitCommit, machineInfo } from "./lib/machine.js";

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = dirname(BENCH_DIR);

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

async function main(): Promise<void> {
  const program = new Command("bench")
    .description("Run Hypofix's benchmarks and print one table")
    .argument("[names...]", "benchmarks to run (file names without .bench.ts); all when none")
    .addOption(
      new Option("--subset <subset>", "quick: a stratified slice that fits in minutes; full: everything")
        .choices(["quick", "full"])
        .default("quick"),
    )
    .option("--timeout <ms>", "per-item timeout (a bug, a run)", positiveInt, 120_000)
    .option("--bench-timeout <ms>", "limit for one whole benchmark", positiveInt, 3_600_000)
    .addOption(
      new Option(
        "--corpus <corpus>",
        "corpus benchmarks: v1 (generated), v2 (hand-written), js (JavaScript/TypeScript, repair only), or all",
      )
        .choices(CORPUS_CHOICES)
        .default("all"),
    )
    .addOption(
      new Option(
        "--split <split>",
        "corpus benchmarks: v2's half (tune on dev only; test is the figure); default repair: test, localize: all",
      ).choices(SPLIT_CHOICES),
    )
    .option(
      "--bug <id>",
      "corpus benchmarks: run this bug (repeatable; subset ignored)",
      (id: string, ids: string[]) => [...ids, id],
      [] as string[],
    )
    .option("--jobs <n>", "corpus benchmarks: bugs run at once", positiveInt, 1)
    .option("--list", "list the benchmarks found and exit")
    .option("--bench-dir <dir>", "where to look for *.bench.ts", BENCH_DIR)
    .option("--results-dir <dir>", "where to write <name>.json", join(BENCH_DIR, "results"))
    .parse();
  const names = program.args;
  const opts = program.opts<{
    subset: BenchOptions["subset"];
    timeout: number;
    benchTimeout: number;
    corpus: CorpusChoice;
    split?: SplitChoice;
    bug: string[];
    jobs: number;
    list?: boolean;
    benchDir: string;
    resultsDir: string;
  }>();

  const files = await listBenchFiles(opts.benchDir);
  if (opts.list) {
    for (const f of files) console.log(`${f.name}\t${relative(REPO_ROOT, f.path)}`);
    return;
  }
  const unknown = names.filter((n) => !files.some((f) => f.name === n));
  if (unknown.length > 0) {
    console.error(
      `no such benchmark: ${unknown.join(", ")} (found: ${files.map((f) => f.name).join(", ") || "none"})`,
    );
  }
  const chosen = names.length === 0 ? files : files.filter((f) => names.includes(f.name));
  if (chosen.length === 0) {
    console.error("no benchmark to run");
    process.exitCode = 1;
    return;
  }

  const options: BenchOptions = {
    subset: opts.subset,
    timeoutMs: opts.timeout,
    corpus: opts.corpus,
    ...(opts.split ? { split: opts.split } : {}),
    ...(opts.bug.length > 0 ? { bugs: opts.bug } : {}),
    jobs: opts.jobs,
  };
  const machine = machineInfo();
  const commit = await gitCommit(REPO_ROOT);
  const outcomes: Outcome[] = [];
  for (const file of chosen) {
    console.error(`== ${file.name} (${options.subset})`);
    const outcome = await runBenchFile(file, options, opts.benchTimeout);
    if (!outcome.ok) console.error(`   failed: ${outcome.error}`);
    outcomes.push(outcome);
    const written = await writeResult(opts.resultsDir, {
      name: outcome.name,
      ...(outcome.description === undefined ? {} : { description: outcome.description }),
      machine,
      date: new Date().toISOString(),
      commit,
      subset: options.subset,
      timeoutMs: options.timeoutMs,
      durationMs: Math.round(outcome.durationMs),
      ...(outcome.result === undefined ? {} : { result: outcome.result }),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    });
    console.error(`   ${(outcome.durationMs / 1000).toFixed(1)}s, wrote ${relative(REPO_ROOT, written)}`);
  }
  console.log(formatTable(outcomes));
  process.exitCode = outcomes.every((o) => o.ok) && unknown.length === 0 ? 0 : 1;
}

await main();
// A benchmark may leave handles open (a pool, a timed-out run still going): the table is out, so end here.
process.exit(process.exitCode ?? 0);
