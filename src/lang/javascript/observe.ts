/**
 * The debugger experiment for JavaScript and TypeScript (`b src/cart.ts:14 ;; c ;; p expr`):
 * the test's own command, run with helpers/hypofix-observe.cjs preloaded into every Node process
 * (NODE_OPTIONS `--require`), which breaks at the line through Node's inspector, mapped through
 * the transform's source map so the line is the one a person reads, and prints the expressions
 * at every hit. The request travels as JSON in a variable and each expression as an inspector
 * message evaluated in the paused frame: never a shell string. The building and reading are
 * pure; `runDebugger` is the one call that runs.
 */
import { randomUUID } from "node:crypto";
import { posix } from "node:path";
import { z } from "zod";
import { traceBlockSchema } from "../trace-block.js";
import type { ExecResult, Sandbox } from "../../sandbox/types.js";
import {
  insideRepository,
  MAX_VALUES,
  NO_EXCEPTION,
  renderBlocks,
  renderValues,
  type Edit,
} from "../experiment.js";
import { outline } from "./outline.js";
import type { BlockTrace, ObserveOptions, Observation, TestFailure, TraceBlock } from "../types.js";
import { parseJsExperiment } from "./experiment.js";

/** The helper's file in the sandbox's helpers folder. */
export const OBSERVE_HELPER = "hypofix-observe.cjs";
/** The variable that carries the request to every process of the run. */
export const OBSERVE_VARIABLE = "HYPOFIX_OBSERVE";

/** How to run exactly one test: the runner's command (the runtime builds it), its variables and folder. */
export interface TestCommand {
  argv: string[];
  env?: Record<string, string>;
  /** Relative to the sandbox's workdir (a workspace's package); default the root. */
  cwd?: string;
}

/** What the helper is asked: a repository-relative file, a 1-based line, the expressions. */
export interface DebuggerRequest {
  /** `trace`: LDB's block trace through lines `start`-`end` (functions starting at `nested` left out). */
  mode?: "debug" | "trace";
  start?: number;
  end?: number;
  nested?: number[];
  /** Absolute path of the repository in the sandbox: `file` is relative to it. */
  root: string;
  file: string;
  line: number;
  exprs: string[];
  /** Hits whose values are recorded (the rest are counted). */
  limit: number;
  /** Absolute path in the sandbox of the JSON-lines file every process appends to. */
  out: string;
}

/** A NODE_OPTIONS token for a path, quoted as Node reads that variable. */
const nodeOption = (path: string) => `"${path.replace(/(["\\])/g, "\\$1")}"`;

/** The variables the test command runs with under the observer (its own NODE_OPTIONS kept). */
export function observerEnv(
  command: TestCommand,
  helpersDir: string,
  request: DebuggerRequest,
): Record<string, string> {
  const preload = `--require ${nodeOption(posix.join(helpersDir, OBSERVE_HELPER))}`;
  const own = command.env?.NODE_OPTIONS?.trim();
  return {
    ...command.env,
    NODE_OPTIONS: own ? `${own} ${preload}` : preload,
    [OBSERVE_VARIABLE]: JSON.stringify(request),
  };
}

const value = z.union([z.object({ value: z.string() }), z.object({ error: z.string() })]);
const record = z.intersection(
  z.object({ pid: z.number(), thread: z.number().default(0) }),
  z.discriminatedUnion("event", [
    z.object({ event: z.literal("loaded"), executable: z.array(z.number().int()) }),
    z.object({ event: z.literal("hit"), values: z.array(value) }),
    z.object({ event: z.literal("end"), total: z.number().int(), reached: z.array(z.number().int()) }),
    z.object({ event: z.literal("problem"), message: z.string() }),
    z.object({
      event: z.literal("trace"),
      total: z.number().int(),
      blocks: z.array(traceBlockSchema.extend({ lines: z.array(z.number().int()) })),
    }),
  ]),
);
type Value = z.infer<typeof value>;

/** What every process of one run reported, merged. */
export interface DebuggerReport {
  /** Some process compiled the file (its own path, or a source map naming it). */
  loaded: boolean;
  /** Lines of the file where a breakpoint can stop (1-based). */
  executable: number[];
  /** Per recorded hit, one value or error per expression, in the order they happened per process. */
  hits: Value[][];
  /** Every hit, recorded or not. */
  total: number;
  /** Lines of the file the run executed. */
  reached: number[];
  /** What went wrong inside the helper, for a run that shows nothing else. */
  problems: string[];
  /** A trace run's blocks, per process that ran the function. */
  traces: { total: number; blocks: (Omit<TraceBlock, "code"> & { lines: number[] })[] }[];
}

/** Merges the helper's JSON lines; a line that is not one of its records is skipped. */
export function readDebuggerReport(text: string, exprCount: number): DebuggerReport {
  const executable = new Set<number>();
  const reached = new Set<number>();
  const hits: Value[][] = [];
  const problems: string[] = [];
  const totals = new Map<string, number>();
  const hitsOf = new Map<string, number>();
  const traces: DebuggerReport["traces"] = [];
  let loaded = false;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let parsed;
    try {
      parsed = record.safeParse(JSON.parse(line));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const r = parsed.data;
    const key = `${r.pid}/${r.thread}`;
    if (r.event === "loaded") {
      loaded = true;
      for (const l of r.executable) executable.add(l);
    } else if (r.event === "hit") {
      if (r.values.length !== exprCount) continue;
      hits.push(r.values);
      hitsOf.set(key, (hitsOf.get(key) ?? 0) + 1);
    } else if (r.event === "end") {
      totals.set(key, r.total);
      for (const l of r.reached) reached.add(l);
    } else if (r.event === "trace") {
      traces.push({ total: r.total, blocks: r.blocks });
    } else if (!problems.includes(r.message)) problems.push(r.message);
  }
  // A process killed before its exit (a runner's worker) counted only the hits it recorded.
  let total = 0;
  for (const key of new Set([...totals.keys(), ...hitsOf.keys()]))
    total += totals.get(key) ?? hitsOf.get(key) ?? 0;
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { loaded, executable: sorted(executable), hits, total, reached: sorted(reached), problems, traces };
}

const NEAREST = 5;
const nearestTo = (lines: number[], line: number) =>
  [...lines]
    .sort((a, b) => Math.abs(a - line) - Math.abs(b - line) || a - b)
    .slice(0, NEAREST)
    .sort((a, b) => a - b);

/**
 * The observation, in the Python side's words: the values (AutoSD's loop sentence for several
 * hits), or why there are none: the file never loaded, the line holds no statement, or the
 * test never reached it (with the nearest lines it did execute).
 */
export function renderDebuggerReport(
  report: DebuggerReport,
  where: { file: string; line: number; exprs: string[]; lineCount: number },
  outcome?: string,
): string {
  const { file, line, exprs } = where;
  const ended = outcome && outcome !== NO_EXCEPTION ? ` The test ended with ${outcome}` : "";
  if (report.hits.length > 0) {
    const perExpr = exprs.map((_, i) =>
      renderValues(
        report.hits.map((hit) => hit[i]!),
        report.total,
      ),
    );
    return exprs.length === 1 ? perExpr[0]! : exprs.map((e, i) => `${e}: ${perExpr[i]}`).join("\n");
  }
  if (!report.loaded) {
    const why = report.problems.length > 0 ? ` (the debugger said: ${report.problems.join("; ")})` : "";
    return `The breakpoint at ${file}:${line} was never reached: the test did not load ${file}${why}.${ended}`;
  }
  if (!report.executable.includes(line)) {
    const place = line > where.lineCount ? "beyond the end of" : "not an executable statement in";
    const nearest = nearestTo(report.executable, line);
    const lines = nearest.length > 0 ? ` Nearest executable lines: ${nearest.join(", ")}.` : "";
    return `Line ${line} is ${place} ${file} (${where.lineCount} lines), so no breakpoint can be set there.${lines}`;
  }
  if (report.reached.length === 0) {
    return `The breakpoint at ${file}:${line} was never reached: the test did not execute any line of ${file}.${ended}`;
  }
  return (
    `The breakpoint at ${file}:${line} was never reached by the test. ` +
    `Lines of ${file} the test did execute nearest to it: ${nearestTo(report.reached, line).join(", ")}.${ended}`
  );
}

/** What ran: the command's exit, for the observation when the runtime reads no outcome from it. */
export function exitOutcome(result: ExecResult): string {
  if (result.timedOut) return "a timeout: the test command was killed at its time limit";
  if (result.exitCode === 0) return NO_EXCEPTION;
  return `a failure: the test command exited with code ${result.exitCode ?? "none (killed)"}`;
}

/** Options of one debugger run. */
export interface DebuggerOptions {
  timeoutMs: number;
  /** Values recorded per expression (default MAX_VALUES). */
  limit?: number;
  /** How the run ended, in the runner's words (the runtime reads its reporter); default: the exit code. */
  outcome?: (result: ExecResult) => string;
}

/** Process start and the runner's own start on top of the test's time. */
const GRACE_MS = 15_000;

/** Runs the test command with the observer preloaded; returns the run and the records every process wrote. */
async function runObserved(
  sandbox: Sandbox,
  command: TestCommand,
  request: Omit<DebuggerRequest, "root" | "out">,
  timeoutMs: number,
): Promise<{ result: ExecResult; text: string }> {
  // The sandbox's own temporary folder beside its workdir (docker: /tmp; local: the sandbox's tmp):
  // outside the repository, so no runner or watcher sees it.
  const out = posix.join(posix.dirname(sandbox.workdir), "tmp", `hypofix-observe-${randomUUID()}.jsonl`);
  const full: DebuggerRequest = { ...request, root: sandbox.workdir, out };
  const result = await sandbox.exec(command.argv, {
    env: observerEnv(command, sandbox.helpersDir, full),
    ...(command.cwd ? { cwd: command.cwd } : {}),
    timeoutMs: timeoutMs + GRACE_MS,
  });
  const text = await sandbox.readFile(out).catch(() => "");
  await sandbox.exec(["rm", "-f", "--", out], { timeoutMs: 10_000 }).catch(() => undefined);
  return { result, text };
}

/**
 * Runs `command` (one test) with a breakpoint at `file:line`, printing `exprs` at every hit, and
 * returns the observation. `file` is repository-relative; nothing here throws for the code under
 * test.
 */
export async function runDebugger(
  sandbox: Sandbox,
  command: TestCommand,
  where: { file: string; line: number; exprs: string[] },
  options: DebuggerOptions,
): Promise<string> {
  const { file, line, exprs } = where;
  if (!insideRepository(file))
    return `File ${file} is outside the repository; give a path relative to its root.`;
  let source: string;
  try {
    source = await sandbox.readFile(file);
  } catch {
    return `File ${file} does not exist in the repository.`;
  }
  const lineCount = source.endsWith("\n") ? source.split("\n").length - 1 : source.split("\n").length;
  const { result, text } = await runObserved(
    sandbox,
    command,
    { file, line, exprs, limit: options.limit ?? MAX_VALUES },
    options.timeoutMs,
  );
  const report = readDebuggerReport(text, exprs.length);
  const outcome = (options.outcome ?? exitOutcome)(result);
  const rendered = renderDebuggerReport(report, { file, line, exprs, lineCount }, outcome);
  return result.timedOut && report.hits.length > 0 ? `${rendered}\n(${outcome})` : rendered;
}

/** What the runtime gives `observeJs`: its sandbox, its runner's command for one test, and the forms it runs itself. */
export interface JsObserveContext {
  sandbox: Sandbox;
  /** The command that runs exactly `testId` (file plus full name). */
  command(testId: string): TestCommand;
  /** Default limit of one run. */
  timeoutMs: number;
  /** How a run ended, in the runner's words (its reporter); default: the exit code. */
  outcome?: (result: ExecResult) => string;
  /** The file an experiment naming none refers to (the failure's innermost source frame), when known. */
  defaultFile?(testId: string, options?: ObserveOptions): Promise<string | undefined>;
  /** Edit-and-run on a scratch copy: the runtime runs the test and reads its result. */
  editAndRun?(
    testId: string,
    edits: Edit[],
    options?: ObserveOptions,
  ): Promise<string | { text: string; failure?: TestFailure }>;
}

/**
 * `Runtime.observe` for JavaScript: parses the experiment (a malformed one is an `invalid`
 * observation saying why) and runs it; never throws for the code under test.
 */
export async function observeJs(
  ctx: JsObserveContext,
  testId: string,
  experiment: string,
  options?: ObserveOptions,
): Promise<Observation> {
  const started = performance.now();
  const done = (kind: Observation["kind"], observation: string, failure?: TestFailure): Observation => ({
    kind,
    experiment,
    observation,
    durationMs: performance.now() - started,
    ...(failure ? { failure } : {}),
  });
  const parsed = parseJsExperiment(experiment);
  if (!parsed.ok) return done("invalid", parsed.error);
  const exp = parsed.experiment;
  const timeoutMs = options?.timeoutMs ?? ctx.timeoutMs;
  if (exp.kind === "debugger") {
    const file = exp.file ?? options?.file ?? (await ctx.defaultFile?.(testId, options));
    if (!file) return done("debugger", `Say which file the breakpoint is in: b path/to/file.ts:${exp.line}.`);
    const text = await runDebugger(
      ctx.sandbox,
      ctx.command(testId),
      { file, line: exp.line, exprs: exp.exprs },
      { timeoutMs, ...(ctx.outcome ? { outcome: ctx.outcome } : {}) },
    );
    return done("debugger", text);
  }
  if (exp.kind === "trace") {
    const where = { file: exp.file, qualname: exp.qualname, testId };
    const outcome = ctx.outcome ? { outcome: ctx.outcome } : {};
    const trace = await runTrace(ctx.sandbox, ctx.command(testId), where, { timeoutMs, ...outcome });
    return done("trace", trace.rendered);
  }
  if (!ctx.editAndRun)
    return done("edit", "Edit-and-run experiments are not available for this test runner.");
  const edited = await ctx.editAndRun(testId, exp.edits, { ...options, timeoutMs });
  return typeof edited === "string" ? done("edit", edited) : done("edit", edited.text, edited.failure);
}

/**
 * LDB's block trace of one test (`command`) through the function `qualname` of `file`, found in
 * the file's syntax tree on the host (outline.ts); its lines are the TypeScript's, through
 * source maps, like the debugger's.
 */
export async function runTrace(
  sandbox: Sandbox,
  command: TestCommand,
  where: { file: string; qualname: string; testId: string },
  options: Omit<DebuggerOptions, "limit">,
): Promise<BlockTrace> {
  const { file, qualname, testId } = where;
  const empty = (rendered: string): BlockTrace => ({
    function: qualname,
    file,
    totalBlocks: 0,
    blocks: [],
    rendered,
  });
  if (!insideRepository(file))
    return empty(`File ${file} is outside the repository; give a path relative to its root.`);
  let source: string;
  try {
    source = await sandbox.readFile(file);
  } catch {
    return empty(`File ${file} does not exist in the repository.`);
  }
  const { functions, problem } = outline(file, source);
  const fn = functions.find((f) => f.qualname === qualname);
  if (!fn) {
    const names = functions.map((f) => f.qualname).join(", ") || "none";
    return empty(problem ?? `No function ${qualname} in ${file}. Functions there: ${names}.`);
  }
  const nested = functions
    .filter((f) => f !== fn && f.startLine > fn.startLine && f.endLine <= fn.endLine)
    .map((f) => f.startLine);
  const request = {
    mode: "trace" as const,
    file,
    line: fn.startLine,
    exprs: [],
    limit: 0,
    start: fn.startLine,
    end: fn.endLine,
    nested,
  };
  const { result, text } = await runObserved(sandbox, command, request, options.timeoutMs);
  const report = readDebuggerReport(text, 0);
  const outcome = (options.outcome ?? exitOutcome)(result);
  // The process that ran the function (a runner's parent process loads nothing of it).
  const trace = report.traces.find((t) => t.total > 0) ?? { total: 0, blocks: [] };
  const lines = source.split("\n");
  const blocks: TraceBlock[] = trace.blocks.map(({ lines: ran, ...b }) => ({
    ...b,
    code: ran.map((n) => lines[n - 1]?.trimEnd() ?? "").join("\n"),
  }));
  const rendered = renderBlocks({ file, qualname, testId, total: trace.total, outcome }, blocks);
  return { function: qualname, file, totalBlocks: trace.total, blocks, rendered };
}
