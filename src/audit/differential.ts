import type { FileRules, Runtime } from "../lang/types.js";
import type { Sandbox } from "../sandbox/types.js";
import { changedFunctions } from "./changes.js";
import type {
  CallDiff,
  CallOutcome,
  ChangedFunction,
  DifferentialReport,
  FileChange,
  Outcome,
  TestDiff,
  Uncapturable,
} from "./types.js";

export interface DifferentialOptions {
  /** One test may run this long before it is failed as hung. */
  testTimeoutMs?: number;
  /** The whole suite, per side. Default: the sandbox's own limit. */
  suiteTimeoutMs?: number;
  /** One replayed call. */
  callTimeoutMs?: number;
  /** Distinct calls recorded per function. */
  maxCallsPerFunction?: number;
  /** Tests whose calls are recorded past that cap (the failing tests, whose calls claims name). */
  priorityTests?: string[];
  /** Pickled arguments of one call larger than this are reported, not recorded. */
  maxArgBytes?: number;
  /**
   * The tests each side runs instead of the whole suite: those that reach the changed code (a
   * job's coverage says which); absent: the suite.
   */
  tests?: string[];
  /** Extra test files (path → content) to run on both sides, e.g. the llm engine's claim tests. */
  extraTests?: Record<string, string>;
}

const DEFAULTS = {
  testTimeoutMs: 20_000,
  callTimeoutMs: 5_000,
  maxCallsPerFunction: 25,
  maxArgBytes: 64 * 1024,
};
/** Scratch folder inside the sandbox's working tree; removed when the audit ends. */
export const SCRATCH = ".hypofix-audit";

/** One side of the change as files to write (null = absent). Base runs head's tests, so both sides run the same tests. */
function state(changes: FileChange[], side: "base" | "head", files: FileRules): Map<string, string | null> {
  return new Map(
    changes.map((c) => [c.path, side === "head" || files.isTestFile(c.path) ? c.after : c.before]),
  );
}

/** What the differential run needs of the language's runtime. */
export type DifferentialRuntime = Pick<
  Runtime,
  "language" | "files" | "functions" | "recordCalls" | "replayCalls" | "forgetCompiled"
>;

interface Side {
  tests: Map<string, { outcome: Outcome; message: string }>;
  collectErrors: string[];
  calls: RecordedCall[];
  uncapturable: Uncapturable[];
  reaching: Map<string, Set<string>>;
  lastStarted?: string;
  timedOut: boolean;
  exitCode: number | null;
  stderr: string;
}

/** A call as the recorder saw it during a test, with what it gave then. */
export interface RecordedCall {
  target: string;
  call: string;
  test: string;
  recorded?: CallOutcome;
}

type JsonLine = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function parseLines(text: string): JsonLine[] {
  const lines: JsonLine[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      lines.push(JSON.parse(line) as JsonLine);
    } catch {
      // The last line of a run killed mid-write is cut short; everything before it is whole.
    }
  }
  return lines;
}

function outcomeOf(line: JsonLine): CallOutcome {
  const kind = str(line.kind) as CallOutcome["kind"];
  const o: CallOutcome = { kind };
  for (const key of ["value", "type", "message", "argsAfter", "stdout"] as const) {
    if (typeof line[key] === "string") o[key] = line[key];
  }
  return o;
}

export function parseSide(
  text: string,
  exec: { timedOut: boolean; exitCode: number | null; stderr: string },
): Side {
  const side: Side = {
    tests: new Map(),
    collectErrors: [],
    calls: [],
    uncapturable: [],
    reaching: new Map(),
    timedOut: exec.timedOut,
    exitCode: exec.exitCode,
    stderr: exec.stderr,
  };
  const reach = (target: string, test: string) => {
    const set = side.reaching.get(target) ?? new Set<string>();
    set.add(test);
    side.reaching.set(target, set);
  };
  for (const line of parseLines(text)) {
    switch (line.kind) {
      case "start":
        side.lastStarted = str(line.id);
        break;
      case "test":
        side.tests.set(str(line.id), { outcome: str(line.outcome) as Outcome, message: str(line.message) });
        break;
      case "collect-error":
        side.collectErrors.push(
          `${str(line.id) || "the test suite"} does not import: ${lastErrorLine(str(line.message))}`,
        );
        break;
      case "call":
        reach(str(line.target), str(line.test));
        if (typeof line.args === "string") {
          const recorded = line.recorded as JsonLine | undefined;
          side.calls.push({
            target: str(line.target),
            call: str(line.call),
            test: str(line.test),
            ...(recorded ? { recorded: outcomeOf(recorded) } : {}),
          });
        }
        break;
      case "uncapturable":
        reach(str(line.target), str(line.test));
        side.uncapturable.push({
          target: str(line.target),
          call: str(line.call),
          test: str(line.test),
          reason: str(line.reason),
        });
        break;
      case "reached":
        for (const target of Object.keys((line.reached as Record<string, number>) ?? {})) {
          if (!side.reaching.has(target)) side.reaching.set(target, new Set());
        }
        break;
    }
  }
  return side;
}

/** pytest's collection report ends with the exception line, `E   SyntaxError: ...`. */
function lastErrorLine(text: string): string {
  const lines = text.split("\n").map((l) => l.replace(/^E\s+/, "").trim());
  return lines.filter((l) => /^\w*(Error|Exception)\b/.test(l)).pop() ?? lines.filter(Boolean).pop() ?? "";
}

const sameOutcome = (a: CallOutcome, b: CallOutcome): boolean =>
  a.kind === b.kind &&
  a.value === b.value &&
  a.type === b.type &&
  a.message === b.message &&
  a.argsAfter === b.argsAfter &&
  a.stdout === b.stdout;

/** Same result as recorded, ignoring what only the replay measures. */
const sameAsRecorded = (recorded: CallOutcome, replayed: CallOutcome): boolean =>
  recorded.kind === replayed.kind &&
  recorded.value === replayed.value &&
  recorded.type === replayed.type &&
  recorded.message === replayed.message;

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

/**
 * Runs the change both ways in one sandbox whose tree is the base: the whole
 * suite on each side with the call recorder, then the calls recorded on base
 * replayed against base and head. Leaves the tree at base.
 */
export async function runDifferential(
  sandbox: Sandbox,
  runtime: DifferentialRuntime,
  changes: FileChange[],
  options: DifferentialOptions = {},
): Promise<DifferentialReport> {
  const opts = { ...DEFAULTS, ...options };
  const notes: string[] = [];
  const sources = changes.filter((c) => runtime.files.isSourceFile(c.path));
  if (sources.length === 0) {
    const files = changes.map((c) => c.path).join(", ") || "nothing";
    notes.push(
      `The change touches no ${runtime.language.name} file (${files}): there is nothing to execute.`,
    );
    return notRun(notes);
  }
  const extra = Object.entries(opts.extraTests ?? {}).map(([path, content]) => ({
    path,
    before: content,
    after: content,
  }));
  const all = [...changes, ...extra];
  const base = state(all, "base", runtime.files);
  const head = state(all, "head", runtime.files);

  const timings: Record<string, number> = {};
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[phase] = Math.round((timings[phase] ?? 0) + performance.now() - started);
    }
  };
  let atBase = false;
  await exec(sandbox, ["mkdir", "-p", SCRATCH]);
  try {
    await timed("switch", () => applyState(sandbox, runtime, head));
    const headFunctions = await timed("functions", () => runtime.functions());
    await timed("switch", () => applyState(sandbox, runtime, base));
    atBase = true;
    const baseFunctions = await timed("functions", () => runtime.functions());
    const changed = changedFunctions(
      changes.filter((c) => !runtime.files.isTestFile(c.path)),
      baseFunctions,
      headFunctions,
      runtime.files,
    );
    if (changed.length === 0)
      notes.push(`The change touches ${runtime.language.name} files but no function or method in them.`);

    const before = await timed("suite base", () => record(sandbox, runtime, "base", changed, opts));
    await timed("switch", () => applyState(sandbox, runtime, head));
    atBase = false;
    const after = await timed("suite head", () => record(sandbox, runtime, "head", changed, opts));
    const replayedAfter = await timed("replay", () =>
      replay(sandbox, runtime, "head", before.calls.length, opts),
    );
    await timed("switch", () => applyState(sandbox, runtime, base));
    atBase = true;
    const replayedBefore = await timed("replay", () =>
      replay(sandbox, runtime, "base", before.calls.length, opts),
    );

    const tests = diffTests(before, after);
    const calls = diffCalls(before, replayedBefore, replayedAfter);
    const testsReaching = reachingTests(before, after);
    notes.push(...runNotes(before, after, tests, calls, opts));
    return {
      changedFunctions: changed,
      tests,
      calls,
      uncapturable: before.uncapturable,
      testsReaching,
      notes,
      ran: true,
      timings,
    };
  } finally {
    if (!atBase) await applyState(sandbox, runtime, base).catch(() => undefined);
    await exec(sandbox, ["rm", "-rf", SCRATCH]).catch(() => undefined);
  }
}

function notRun(notes: string[]): DifferentialReport {
  return {
    changedFunctions: [],
    tests: [],
    calls: [],
    uncapturable: [],
    testsReaching: {},
    notes,
    ran: false,
    timings: {},
  };
}

/** Each call recorded on base, with its outcome replayed on both sides. */
function diffCalls(before: Side, replayedBefore: CallOutcome[], replayedAfter: CallOutcome[]): CallDiff[] {
  return before.calls.map((c, i) => {
    const b = replayedBefore[i] ?? { kind: "missing" };
    const a = replayedAfter[i] ?? { kind: "missing" };
    return {
      ...c,
      before: b,
      after: a,
      changed: !sameOutcome(b, a),
      contextDependent: c.recorded !== undefined && !sameAsRecorded(c.recorded, b),
    };
  });
}

/** For each changed function, the tests that reach it on either side. */
function reachingTests(before: Side, after: Side): Record<string, string[]> {
  const testsReaching: Record<string, string[]> = {};
  for (const side of [before, after]) {
    for (const [target, ids] of side.reaching) {
      testsReaching[target] = [...new Set([...(testsReaching[target] ?? []), ...ids])];
    }
  }
  return testsReaching;
}

async function exec(sandbox: Sandbox, argv: string[], timeoutMs = 30_000) {
  return sandbox.exec(argv, { timeoutMs });
}

/** Writes one side's files and has the runtime drop what it compiled from the old text. */
async function applyState(
  sandbox: Sandbox,
  runtime: DifferentialRuntime,
  files: Map<string, string | null>,
): Promise<void> {
  const removed: string[] = [];
  for (const [path, content] of files) {
    if (content === null) removed.push(path);
    else await sandbox.writeFile(path, content);
  }
  if (removed.length > 0) await exec(sandbox, ["rm", "-f", "--", ...removed]);
  await runtime.forgetCompiled();
}

async function record(
  sandbox: Sandbox,
  runtime: DifferentialRuntime,
  side: "base" | "head",
  changed: ChangedFunction[],
  opts: typeof DEFAULTS & DifferentialOptions,
): Promise<Side> {
  const out = `${SCRATCH}/${side}.jsonl`;
  const result = await runtime.recordCalls({
    targets: changed.filter((f) => (side === "base" ? f.inBase : f.inHead)),
    out,
    configPath: `${SCRATCH}/${side}.json`,
    extraTests: Object.keys(opts.extraTests ?? {}),
    ...(opts.tests ? { tests: opts.tests } : {}),
    maxCalls: opts.maxCallsPerFunction,
    ...(opts.priorityTests ? { priorityTests: opts.priorityTests } : {}),
    maxArgBytes: opts.maxArgBytes,
    testTimeoutMs: opts.testTimeoutMs,
    ...(opts.suiteTimeoutMs ? { suiteTimeoutMs: opts.suiteTimeoutMs } : {}),
  });
  const text = await sandbox.readFile(out).catch(() => "");
  if (text === "" && !result.timedOut) {
    const why = (result.stderr || result.stdout).trim().split("\n").slice(-5).join(" / ");
    throw new Error(
      `${runtime.language.testRunner} did not start on ${side} (exit ${result.exitCode}): ${why}`,
    );
  }
  return parseSide(text, result);
}

async function replay(
  sandbox: Sandbox,
  runtime: DifferentialRuntime,
  side: "base" | "head",
  count: number,
  opts: typeof DEFAULTS,
): Promise<CallOutcome[]> {
  if (count === 0) return [];
  const out = `${SCRATCH}/replay-${side}.jsonl`;
  await runtime.replayCalls({
    record: `${SCRATCH}/base.jsonl`,
    out,
    count,
    callTimeoutMs: opts.callTimeoutMs,
  });
  const text = await sandbox.readFile(out).catch(() => "");
  const results: CallOutcome[] = [];
  for (const line of parseLines(text)) {
    if (typeof line.index === "number") results[line.index] = outcomeOf(line);
  }
  return results;
}

function diffTests(before: Side, after: Side): TestDiff[] {
  const ids = [...new Set([...before.tests.keys(), ...after.tests.keys()])].sort();
  return ids.map((id) => {
    const b = before.tests.get(id);
    const a = after.tests.get(id);
    return {
      id,
      before: b?.outcome ?? "missing",
      after: a?.outcome ?? "missing",
      ...(b?.message ? { beforeMessage: b.message } : {}),
      ...(a?.message ? { afterMessage: a.message } : {}),
    };
  });
}

function runNotes(
  before: Side,
  after: Side,
  tests: TestDiff[],
  calls: CallDiff[],
  opts: typeof DEFAULTS & DifferentialOptions,
): string[] {
  const notes: string[] = [];
  const list = (ids: string[]) =>
    ids.slice(0, 5).join(", ") + (ids.length > 5 ? ` and ${ids.length - 5} more` : "");
  if (before.tests.size === 0 && after.tests.size === 0)
    notes.push("No test ran on either side of the change.");
  const failingBase = tests.filter((t) => ["failed", "error", "timeout"].includes(t.before)).map((t) => t.id);
  if (failingBase.length > 0) {
    notes.push(
      `The base already fails ${failingBase.length} of its tests before the change: ${list(failingBase)}.`,
    );
  }
  const newErrors = after.collectErrors.filter((e) => !before.collectErrors.includes(e));
  if (newErrors.length > 0) notes.push(`With the change, ${newErrors[0]} (its tests did not run).`);
  if (before.collectErrors.length > 0)
    notes.push(`On base, ${before.collectErrors[0]} (its tests did not run).`);
  for (const [name, side] of [
    ["base", before],
    ["head", after],
  ] as const) {
    const hung = [...side.tests].filter(([, t]) => t.outcome === "timeout").map(([id]) => id);
    if (hung.length > 0) {
      notes.push(
        `On ${name}, ${list(hung)} hung and failed at the ${seconds(opts.testTimeoutMs)} per-test limit.`,
      );
    }
    if (side.timedOut) {
      notes.push(
        `On ${name}, the suite did not finish in time` +
          (side.lastStarted ? `; the last test started was ${side.lastStarted}` : "") +
          "; tests after it are reported as missing.",
      );
    }
  }
  const unimportable = calls.find((c) => c.after.kind === "unresolved" && c.before.kind !== "unresolved");
  if (unimportable) {
    notes.push(
      `With the change, ${unimportable.target} cannot be called: ${unimportable.after.type}: ${unimportable.after.message}`,
    );
  }
  const byReason = new Map<string, Uncapturable[]>();
  for (const u of before.uncapturable)
    byReason.set(`${u.target}: ${u.reason}`, [...(byReason.get(`${u.target}: ${u.reason}`) ?? []), u]);
  for (const [key, items] of byReason) {
    notes.push(`${items.length} call(s) to ${key} — not replayed, e.g. ${items[0]?.call}.`);
  }
  const dependent = calls.filter((c) => c.contextDependent);
  if (dependent.length > 0) {
    notes.push(
      `${dependent.length} recorded call(s) gave a different result when replayed on base than during the tests ` +
        `(they depend on state outside their arguments), so they are not counted as evidence; e.g. ${dependent[0]?.call}.`,
    );
  }
  const replayCut = calls.filter((c) => c.before.kind === "missing" || c.after.kind === "missing").length;
  if (replayCut > 0)
    notes.push(`${replayCut} recorded call(s) could not be replayed before the replay's time limit.`);
  return notes;
}
