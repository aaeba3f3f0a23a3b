import { formatFrames } from "../lang/frames.js";
import { defaultLanguage } from "../lang/registry.js";
import type { CoverageReport, FunctionInfo, Language, TestFailure } from "../lang/types.js";
import type { Logger } from "../log.js";
import { renderPrompt } from "../llm/prompts.js";
import type { ChatMessage, ChatModel, ChatRequest } from "../llm/types.js";
import type { LocalizationEntry } from "../result.js";
import { aggregateRuns, orderUnnamed, runAgreement } from "./autofl-score.js";
import { autoflToolSpecs, runTool, type ToolContext } from "./autofl-tools.js";
import { functionKey, matchFunction, predictionCandidates } from "./names.js";
import { cutTestSnippet, qualifiedName } from "./python-source.js";
import { functionLocator, type SbflResult } from "./sbfl.js";

export const DEFAULT_RUNS = 5;
export const DEFAULT_MAX_CALLS = 10;
const MAX_MESSAGE_CHARS = 2000;

export interface AutoflInput {
  model: ChatModel;
  failingTests: string[];
  /** Failure details per failing test (from the reproduction run). */
  failures: Map<string, TestFailure | undefined>;
  coverage: CoverageReport;
  /** Test functions (runtime.functions({ includeTests: true })), to cut the test snippets. */
  testFunctions: FunctionInfo[];
  readFile(path: string): Promise<string>;
  /** SBFL over the same coverage: the line shown per function and the last tie-break. */
  sbfl: SbflResult;
  /** R, the number of runs (default 5). */
  runs?: number;
  /** N, the function-call budget per run (default 10). */
  maxCalls?: number;
  temperature?: number;
  log?: Logger;
  /** The repository's language, for the prompts' words (default: the default language). */
  language?: Pick<Language, "name" | "prompts">;
}

/** One AutoFL run, kept whole for the report and for tests. */
export interface AutoflRun {
  index: number;
  testId: string;
  messages: ChatMessage[];
  toolCalls: { name: string; arguments: string; ok: boolean }[];
  /** The model's root-cause explanation from stage 1, when it gave one. */
  explanation?: string;
  /** Stage 2's raw answer. */
  answer?: string;
  /** Qualified names of the functions the answer named, in order. */
  predicted: string[];
  /** Names in the answer that match no function (or several), with why. */
  unmatched: string[];
  /** Why the run contributed nothing, when it did not. */
  problem?: string;
}

export interface AutoflResult {
  entries: LocalizationEntry[];
  agreement: number;
  runs: AutoflRun[];
  /** True when at least one run named a real function. */
  contributed: boolean;
}

/** AutoFL (Kang et al.): R two-stage runs round-robin over the failing tests, aggregated by 1/n scoring. */
export async function autofl(input: AutoflInput): Promise<AutoflResult> {
  const coveredBy = coveredFunctions(input.coverage, input.failingTests);
  const shared: SharedState = {
    coveredBy,
    coveredByFailing: new Set([...coveredBy.values()].flatMap((s) => [...s])),
    lookedAt: new Map<string, number>(),
  };
  const runs = await explore(input, shared);
  return aggregate(input, runs, shared);
}

/** What the runs of one AutoFL call share: coverage per failing test, and how often the model looked at each function. */
interface SharedState {
  coveredBy: Map<string, Set<string>>;
  coveredByFailing: Set<string>;
  lookedAt: Map<string, number>;
}

/** The R runs, one after another; a failing model call ends them (it would fail every run). */
async function explore(input: AutoflInput, shared: SharedState): Promise<AutoflRun[]> {
  const R = input.runs ?? DEFAULT_RUNS;
  const N = input.maxCalls ?? DEFAULT_MAX_CALLS;
  const sources = new Map<string, Promise<string[] | undefined>>();
  const source = (file: string) => {
    let s = sources.get(file);
    if (!s) {
      s = input.readFile(file).then(
        (text) => text.split("\n"),
        () => undefined,
      );
      sources.set(file, s);
    }
    return s;
  };
  const tools = autoflToolSpecs();
  const runs: AutoflRun[] = [];
  for (let i = 0; i < R; i++) {
    const testId = input.failingTests[i % input.failingTests.length] ?? "";
    const ctx: ToolContext = {
      functions: input.coverage.functions,
      coveredByTest: shared.coveredBy.get(testId) ?? new Set(),
      coveredByFailing: shared.coveredByFailing,
      source,
      lookedAt: shared.lookedAt,
      importOf: (file) => (input.language ?? defaultLanguage()).prompts.importOf(file),
    };
    const run: AutoflRun = { index: i, testId, messages: [], toolCalls: [], predicted: [], unmatched: [] };
    runs.push(run);
    try {
      await stageOne(run, input, ctx, tools, N, source);
      await stageTwo(run, input, ctx);
    } catch (err) {
      // The client already retried; a failure here (endpoint down, budget spent) would repeat on every run.
      run.problem = `model call failed: ${err instanceof Error ? err.message : String(err)}`;
      input.log?.warn({ run: i, err: run.problem }, "autofl run failed");
      break;
    }
  }
  return runs;
}

/** Functions the runs named, by score; then the other covered functions in SBFL order. */
function aggregate(input: AutoflInput, runs: AutoflRun[], shared: SharedState): AutoflResult {
  const functions = input.coverage.functions;
  const byKey = new Map(functions.map((f) => [functionKey(f), f]));
  const predictions = runs.map((r) => r.predicted);
  const ranked = aggregateRuns(predictions);
  const named = new Set(ranked.map((r) => r.key));
  const bestLine = bestLines(input.sbfl);
  const entries: LocalizationEntry[] = [];
  const add = (f: FunctionInfo | undefined, score: number, reason: string) => {
    if (!f) return;
    const line = bestLine.get(functionKey(f));
    entries.push({
      rank: entries.length + 1,
      file: f.file,
      function: f.qualname,
      ...(line === undefined ? {} : { line }),
      score,
      reason,
    });
  };
  const byName = new Map(functions.map((f) => [qualifiedName(f), f]));
  for (const r of ranked) {
    add(
      byName.get(r.key),
      r.score,
      `named in ${r.votes}/${runs.length} AutoFL runs (score ${r.score.toFixed(2)})`,
    );
  }
  const sbflOrder = new Map(input.sbfl.functions.map((e, i) => [`${e.file}::${e.function}`, i]));
  const unnamed = orderUnnamed(
    new Set(functions.filter((f) => named.has(qualifiedName(f))).map(functionKey)),
    [...shared.coveredByFailing]
      .sort((a, b) => (sbflOrder.get(a) ?? Infinity) - (sbflOrder.get(b) ?? Infinity) || (a < b ? -1 : 1))
      .map((key) => ({
        key,
        failingTests: [...shared.coveredBy.values()].filter((s) => s.has(key)).length,
        lookedAt: shared.lookedAt.get(key) ?? 0,
      })),
  );
  for (const c of unnamed) {
    const reason = `not named by the model; executed by ${c.failingTests}/${input.failingTests.length} failing tests, looked at ${c.lookedAt} times`;
    add(byKey.get(c.key), 0, reason);
  }
  return {
    entries,
    agreement: runAgreement(predictions, runs.length, ranked[0]?.key),
    runs,
    contributed: ranked.length > 0,
  };
}

async function stageOne(
  run: AutoflRun,
  input: AutoflInput,
  ctx: ToolContext,
  tools: ReturnType<typeof autoflToolSpecs>,
  maxCalls: number,
  source: (file: string) => Promise<string[] | undefined>,
): Promise<void> {
  run.messages.push(
    {
      role: "system",
      content: renderPrompt("autofl-system", {
        maxCalls: String(maxCalls),
        language: (input.language ?? defaultLanguage()).name,
      }),
    },
    { role: "user", content: await firstPrompt(run.testId, input, source) },
  );
  for (;;) {
    const request: ChatRequest = { messages: run.messages, tools, ...temperature(input) };
    const message = (await input.model.complete(request)).choices[0]?.message;
    if (!message) return;
    run.messages.push(message);
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) {
      if (message.content) run.explanation = message.content;
      return;
    }
    for (const call of calls) {
      // Every call must be answered before the conversation can go on, even past the budget.
      let content = "The function-call budget is used up; no more calls will be answered.";
      if (run.toolCalls.length < maxCalls) {
        const outcome = await runTool(call, ctx);
        run.toolCalls.push({ name: call.name, arguments: call.arguments, ok: outcome.ok });
        const left = maxCalls - run.toolCalls.length;
        content = `${outcome.content}\n(${left === 0 ? "No" : left} function call${left === 1 ? "" : "s"} left${left === 0 ? ": answer with what you have" : ""}.)`;
      }
      run.messages.push({ role: "tool", toolCallId: call.id, content });
    }
    if (run.toolCalls.length >= maxCalls) return;
  }
}

async function stageTwo(run: AutoflRun, input: AutoflInput, ctx: ToolContext): Promise<void> {
  run.messages.push({ role: "user", content: renderPrompt("autofl-stage2", {}) });
  const message = (await input.model.complete({ messages: run.messages, ...temperature(input) })).choices[0]
    ?.message;
  if (message) run.messages.push(message);
  const answer = message?.content ?? "";
  run.answer = answer;
  for (const candidate of predictionCandidates(answer)) {
    const m = matchFunction(candidate, ctx.functions, ctx.coveredByFailing);
    if (m.kind === "match") {
      const name = qualifiedName(m.function);
      if (!run.predicted.includes(name)) run.predicted.push(name);
    } else if (m.kind === "ambiguous") {
      run.unmatched.push(`${candidate} (could be ${m.candidates.map(qualifiedName).join(", ")})`);
    } else {
      run.unmatched.push(`${candidate} (no such function)`);
    }
  }
  if (run.predicted.length === 0) {
    run.problem =
      answer.trim() === ""
        ? "stage 2 gave no answer"
        : `stage 2 named no function of the project: ${JSON.stringify(answer.slice(0, 200))}`;
  }
}

function temperature(input: AutoflInput): { temperature?: number } {
  return input.temperature === undefined ? {} : { temperature: input.temperature };
}

/** Stage 1's prompt: test name, snippet cut at the failing statement, minimised failure. */
async function firstPrompt(
  testId: string,
  input: AutoflInput,
  source: (file: string) => Promise<string[] | undefined>,
): Promise<string> {
  const failure = input.failures.get(testId);
  const [file = "", ...rest] = testId.split("::");
  const qualname = rest.join(".").replace(/\[.*$/, "");
  const testFn = input.testFunctions.find((f) => f.file === file && f.qualname === qualname);
  const lines = await source(file);
  let snippet = `# the source of ${testId} could not be found`;
  if (testFn && lines) {
    const frame = [...(failure?.frames ?? [])]
      .reverse()
      .find((f) => f.file === file && f.line >= testFn.startLine && f.line <= testFn.endLine);
    snippet = cutTestSnippet(lines, testFn, frame?.line);
  }
  return renderPrompt("autofl-stage1", {
    fence: (input.language ?? defaultLanguage()).prompts.fence(file),
    testName: testId,
    testSnippet: snippet,
    failure: failure ? renderFailure(failure) : "(no failure details were recorded)",
  });
}

export function renderFailure(failure: TestFailure): string {
  const message =
    failure.message.length > MAX_MESSAGE_CHARS
      ? `${failure.message.slice(0, MAX_MESSAGE_CHARS)} [... cut]`
      : failure.message;
  const head = message ? `${failure.type}: ${message}` : failure.type;
  return failure.frames.length > 0
    ? `${head}\nTraceback (repository frames):\n${formatFrames(failure.frames)}`
    : head;
}

/** Per failing test, the keys of the functions it executed. */
export function coveredFunctions(coverage: CoverageReport, tests: string[]): Map<string, Set<string>> {
  const locate = functionLocator(coverage.functions);
  const result = new Map<string, Set<string>>();
  for (const id of tests) {
    const keys = new Set<string>();
    for (const [file, lines] of Object.entries(coverage.perTest[id] ?? {})) {
      for (const line of lines) {
        const f = locate(file, line);
        if (f) keys.add(functionKey(f));
      }
    }
    result.set(id, keys);
  }
  return result;
}

function bestLines(result: SbflResult): Map<string, number> {
  const best = new Map<string, number>();
  for (const e of result.functions) if (e.line !== undefined) best.set(`${e.file}::${e.function}`, e.line);
  return best;
}
