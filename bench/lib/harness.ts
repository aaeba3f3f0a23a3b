/** The benchmark harness behind bench/run.ts: finds bench/<name>.bench.ts files, runs the
 * chosen ones one after another (a failure is recorded, never stops the others), renders
 * one table and writes bench/results/<name>.json. */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Benchmark, BenchOptions, BenchResult } from "../types.js";
import type { MachineInfo } from "./machine.js";

export interface BenchFile {
  /** From the file name: `sandbox` for bench/sandbox.bench.ts; the CLI selects by it. */
  name: string;
  path: string;
}

export interface Outcome {
  name: string;
  description?: string;
  ok: boolean;
  durationMs: number;
  result?: BenchResult;
  error?: string;
}

export interface ResultFile {
  name: string;
  description?: string;
  machine: MachineInfo;
  date: string;
  commit: string;
  subset: BenchOptions["subset"];
  timeoutMs: number;
  durationMs: number;
  /** Absent when the benchmark failed; `error` says why. */
  result?: BenchResult;
  error?: string;
}

const SUFFIX = ".bench.ts";

export async function listBenchFiles(dir: string): Promise<BenchFile[]> {
  const names = await readdir(dir);
  return names
    .filter((n) => n.endsWith(SUFFIX))
    .sort()
    .map((n) => ({ name: n.slice(0, -SUFFIX.length), path: join(dir, n) }));
}

function isBenchmark(value: unknown): value is Benchmark {
  const b = value as Partial<Benchmark> | null;
  return typeof b === "object" && b !== null && typeof b.name === "string" && typeof b.run === "function";
}

function isResult(value: unknown): value is BenchResult {
  const r = value as Partial<BenchResult> | null;
  return typeof r === "object" && r !== null && Array.isArray(r.rows) && typeof r.data === "object";
}

function message(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] || error.name : String(error);
}

/** Rejects after `ms`, naming the whole `limitMs`; the timer does not keep the process alive. */
function deadline(ms: number, limitMs: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`did not finish within ${limitMs} ms`)), ms).unref();
  });
}

/** Imports one benchmark file and runs it; an import, shape or run failure, or running past
 * `limitMs`, becomes the outcome (a benchmark cannot be cancelled: the caller exits). */
export async function runBenchFile(
  file: BenchFile,
  options: BenchOptions,
  limitMs: number = Number.POSITIVE_INFINITY,
): Promise<Outcome> {
  const started = performance.now();
  let description: string | undefined;
  try {
    const module = (await import(pathToFileURL(file.path).href)) as { default?: unknown };
    if (!isBenchmark(module.default)) throw new Error(`${file.name}: no default-exported Benchmark`);
    description = module.default.description;
    const running = module.default.run(options);
    const left = limitMs - (performance.now() - started);
    const result: unknown = await (Number.isFinite(limitMs)
      ? Promise.race([running, deadline(left, limitMs)])
      : running);
    if (!isResult(result)) throw new Error(`${file.name}: run() did not return { rows, data }`);
    return { name: file.name, description, ok: true, durationMs: performance.now() - started, result };
  } catch (error) {
    const outcome: Outcome = { name: file.name, ok: false, durationMs: performance.now() - started };
    if (description !== undefined) outcome.description = description;
    outcome.error = message(error);
    return outcome;
  }
}

function cell(value: number | string | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  }
  return value;
}

/** One table for all benchmarks: benchmark, metric, value, unit, target. */
export function formatTable(outcomes: readonly Outcome[]): string {
  const rows: string[][] = [["benchmark", "metric", "value", "unit", "target"]];
  for (const o of outcomes) {
    if (!o.ok) {
      rows.push([o.name, "FAILED", o.error ?? "", "", ""]);
      continue;
    }
    for (const r of o.result?.rows ?? []) {
      rows.push([o.name, r.metric, cell(r.value), r.unit ?? "", r.target ?? ""]);
    }
    rows.push([o.name, "run time", cell(o.durationMs / 1000), "s", ""]);
  }
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length)));
  const line = (r: string[]): string =>
    r
      .map((c, col) => c.padEnd(widths[col] ?? 0))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join("\n");
}

export async function writeResult(dir: string, file: ResultFile): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${file.name}.json`);
  await writeFile(path, JSON.stringify(file, null, 2) + "\n");
  return path;
}
