import type { CorpusChoice, SplitChoice } from "./lib/bugs.js";

/** A benchmark: bench/run.ts discovers every bench/*.bench.ts exporting one as default. */
export interface Benchmark {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<BenchResult>;
}

export interface BenchOptions {
  /** `quick` for a run that fits in minutes, `full` for everything. */
  subset: "quick" | "full";
  /** Per-item timeout in ms (a bug, a run). */
  timeoutMs: number;
  /** Corpus benchmarks (repair, localize): which corpora, which v2 split, which bugs, how many at once. */
  corpus?: CorpusChoice;
  split?: SplitChoice;
  /** Bug ids; when given, exactly these bugs (subset ignored). */
  bugs?: string[];
  jobs?: number;
}

export interface BenchResult {
  /** Rows for the printed table: metric name, value, unit, target when there is one. */
  rows: { metric: string; value: number | string; unit?: string; target?: string }[];
  /** Everything measured, written to bench/results/<name>.json with machine/date/commit. */
  data: Record<string, unknown>;
}
