import path from "node:path";
import { fileURLToPath } from "node:url";
import { eachMapping, TraceMap, type SourceMapInput } from "@jridgewell/trace-mapping";
import { z } from "zod";
import type { LineCoverage } from "../types.js";
import { splitTestId, testId } from "./runner/ids.js";

/*
 * Lines a test executed, from V8's precise coverage (NODE_V8_COVERAGE): each script's block
 * ranges and counts, read at the position of each source line, or for code that was
 * transpiled (TypeScript through tsx, ts-node, Babel) at each segment of the source map
 * Node kept beside the coverage (`source-map-cache`), so the line is the one a person reads.
 * Jest runs tests in its own module system: its V8 coverage, already mapped, is read from its
 * `coverage-final.json`. Pure: the files come in as text.
 */

const rangeSchema = z.object({ startOffset: z.number(), endOffset: z.number(), count: z.number() });
const v8Schema = z.object({
  result: z.array(
    z.object({
      url: z.string(),
      functions: z.array(z.object({ ranges: z.array(rangeSchema) })),
    }),
  ),
  "source-map-cache": z
    .record(
      z.string(),
      z.object({
        lineLengths: z.array(z.number()).nullish(),
        data: z.unknown().optional(),
        /** Characters a runner put before the file's first line (Jest's module wrapper). */
        prefix: z.number().optional(),
      }),
    )
    .optional(),
});
/** One cut of coverage-preload.cjs's per-test mode: what ran in `file` since the last cut. */
const snapshotSchema = v8Schema.extend({
  /** The test file; `*` for every test of the run. */
  file: z.string(),
  /** The test's title path, or null for what belongs to every test of `file`. */
  test: z.array(z.string()).nullable(),
});
const istanbulSchema = z.record(
  z.string(),
  z.object({
    statementMap: z.record(z.string(), z.object({ start: z.object({ line: z.number() }) })),
    s: z.record(z.string(), z.number()),
  }),
);

type Range = z.infer<typeof rangeSchema>;
type V8Report = z.infer<typeof v8Schema>;
type Maps = NonNullable<V8Report["source-map-cache"]>;

/** Whether the innermost range holding `offset` ran (V8's nested ranges override their parents). */
function ranAt(ranges: Range[], offset: number): boolean {
  let best: Range | undefined;
  for (const r of ranges) {
    if (
      r.startOffset <= offset &&
      offset < r.endOffset &&
      (!best || r.endOffset - r.startOffset <= best.endOffset - best.startOffset)
    )
      best = r;
  }
  return (best?.count ?? 0) > 0;
}

/** A line that holds code: not blank, not only a comment or closing punctuation. */
const CODE_LINE = /^(?!\/\/|\/\*|\*|[)\]};,\s]*$)/;

export interface CoverageInput {
  /** The repository's root in the sandbox (scripts elsewhere are not the repository's). */
  root: string;
  /** Repository-relative paths whose lines count (sources, not tests). */
  counts(file: string): boolean;
  /** The text of a repository file, for a script that has no source map. */
  source(file: string): string | undefined;
}

const addLine = (out: Map<string, Set<number>>, file: string, line: number) => {
  let lines = out.get(file);
  if (!lines) out.set(file, (lines = new Set()));
  lines.add(line);
};

/** A repository-relative path for a file URL or path under `root`, else undefined. */
function repoPath(root: string, url: string): string | undefined {
  let abs: string;
  try {
    abs = url.startsWith("file://") ? fileURLToPath(url) : url;
  } catch {
    return undefined;
  }
  if (!abs.startsWith("/")) return undefined;
  const rel = path.posix.relative(root, abs);
  return rel.startsWith("..") || rel.split("/").includes("node_modules") ? undefined : rel;
}

/** The lines executed in one process's coverage (a NODE_V8_COVERAGE file, or a per-test cut). */
function linesOfV8(
  report: Pick<V8Report, "result">,
  maps: Maps,
  input: CoverageInput,
  out: Map<string, Set<number>>,
): void {
  for (const script of report.result) {
    const generated = repoPath(input.root, script.url);
    if (!generated) continue;
    const ranges = script.functions.flatMap((f) => f.ranges);
    const cached = maps[script.url];
    const prefix = cached?.prefix ?? 0;
    if (cached?.data && cached.lineLengths) {
      const starts = [0];
      for (const len of cached.lineLengths) starts.push(starts.at(-1)! + len + 1);
      let map: TraceMap;
      try {
        map = new TraceMap(cached.data as SourceMapInput, script.url);
      } catch {
        continue; // a map that does not parse maps nothing
      }
      eachMapping(map, (m) => {
        if (m.source === null || m.originalLine === null) return;
        const file = repoPath(input.root, m.source);
        if (!file || !input.counts(file)) return;
        const start = starts[m.generatedLine - 1];
        const column = m.generatedColumn + (m.generatedLine === 1 ? prefix : 0);
        if (start !== undefined && ranAt(ranges, start + column)) addLine(out, file, m.originalLine);
      });
      continue;
    }
    if (!input.counts(generated)) continue;
    const text = input.source(generated);
    if (text === undefined) continue;
    let offset = prefix;
    text.split("\n").forEach((line, i) => {
      const indent = line.length - line.trimStart().length;
      const code = line.trim();
      if (code && CODE_LINE.test(code) && ranAt(ranges, offset + indent)) addLine(out, generated, i + 1);
      offset += line.length + 1;
    });
  }
}

/** The lines executed by one test: its V8 coverage files, or Jest's coverage-final.json. */
export function linesCovered(
  files: { v8?: string[]; istanbul?: string },
  input: CoverageInput,
): LineCoverage {
  const out = new Map<string, Set<number>>();
  for (const text of files.v8 ?? []) {
    const report = v8Schema.parse(JSON.parse(text));
    linesOfV8(report, report["source-map-cache"] ?? {}, input, out);
  }
  if (files.istanbul) {
    for (const [abs, entry] of Object.entries(istanbulSchema.parse(JSON.parse(files.istanbul)))) {
      const file = repoPath(input.root, abs);
      if (!file || !input.counts(file)) continue;
      for (const [id, count] of Object.entries(entry.s))
        if (count > 0 && entry.statementMap[id]) addLine(out, file, entry.statementMap[id].start.line);
    }
  }
  return sorted(out);
}

function sorted(out: Map<string, Set<number>>): LineCoverage {
  const coverage: LineCoverage = {};
  for (const [file, lines] of [...out].sort(([a], [b]) => a.localeCompare(b)))
    coverage[file] = [...lines].sort((a, b) => a - b);
  return coverage;
}

/**
 * The lines each test executed in one run cut per test (coverage-preload.cjs's per-test mode,
 * `texts` its JSON-lines files): a test's own cut, plus what its file ran outside any test
 * (loading its modules, hooks shared by its tests) and what the run ran before any test, as the
 * test would have run alone. Keyed by test id; a test with no cut of its own is left out.
 */
export function linesCoveredPerTest(texts: string[], input: CoverageInput): Record<string, LineCoverage> {
  const snapshots = texts.flatMap((text) =>
    text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .flatMap((line) => {
        try {
          return [snapshotSchema.parse(JSON.parse(line))];
        } catch {
          return []; // a line cut short by a killed worker
        }
      }),
  );
  // Maps are given once per script and process; the same file has the same map in every process.
  const maps: Maps = Object.assign({}, ...snapshots.map((s) => s["source-map-cache"] ?? {}));
  const fileOf = (file: string) => (file === "*" ? file : repoPath(input.root, file));
  const shared = new Map<string, Map<string, Set<number>>>();
  const own = new Map<string, Map<string, Set<number>>>();
  for (const snapshot of snapshots) {
    const file = fileOf(snapshot.file);
    if (file === undefined) continue;
    const key = snapshot.test ? testId(file, snapshot.test) : file;
    const into = snapshot.test ? own : shared;
    let lines = into.get(key);
    if (!lines) into.set(key, (lines = new Map()));
    linesOfV8(snapshot, maps, input, lines);
  }
  const perTest: Record<string, LineCoverage> = {};
  for (const [id, lines] of own) {
    const out = new Map<string, Set<number>>();
    for (const part of [lines, shared.get(splitTestId(id).file), shared.get("*")])
      for (const [file, set] of part ?? []) for (const line of set) addLine(out, file, line);
    perTest[id] = sorted(out);
  }
  return perTest;
}
