import { checkedOn } from "./checked-on.js";
import { BudgetExceeded } from "../llm/errors.js";
import { renderPrompt } from "../llm/prompts.js";
import type { ChatMessage, ChatModel, ChatRequest } from "../llm/types.js";
import type { FunctionInfo, Runtime } from "../lang/types.js";
import type { Budget } from "./budget.js";
import {
  parseBlockVerdicts,
  parseConclusion,
  parseFunctionAnswer,
  parseProposal,
  type ParseOutcome,
  type ProposedStep,
} from "./parse.js";
import { rewriteCandidate } from "./rewrite.js";
import type {
  BugContext,
  Candidate,
  DebugEngine,
  FileEdit,
  EngineRun,
  StepRecord,
  Validate,
  Validation,
} from "./types.js";

export interface LlmEngineOptions {
  /** AutoSD's `s`: hypothesize-observe-conclude steps at most. */
  maxSteps: number;
  /** Patch candidates asked for at the end (the paper's 10). */
  patches: number;
  /** LDB regenerations when the loop ends without DONE and no candidate validates. */
  ldbIterations?: number;
  /** Rewrites asked for again when every one broke other tests (the round with their failures). */
  brokeRetries?: number;
  temperature?: number;
}

/**
 * The `llm` engine: the model writes each hypothesis, prediction, experiment
 * and conclusion; observations come from the real runtime. Output is parsed
 * strictly: a malformed step gets one repair request, then is recorded as
 * undecided. Then N candidate functions, each validated; LDB's block-trace
 * regeneration is the fallback when no step reached DONE.
 */
export function createLlmEngine(model: ChatModel, options: LlmEngineOptions): DebugEngine {
  return {
    name: "llm",
    async run(bug, runtime, budget, validate) {
      const target = targetFunction(bug);
      if (!target) return { steps: [], candidates: [], done: false, stop: "exhausted" };
      const source = await bug.readSource(target.file);
      const prompt = await bugPrompt(bug, runtime, target, source);
      const words = runtime.language.prompts;
      const system: ChatMessage = {
        role: "system",
        content: renderPrompt("autosd-system", {
          language: runtime.language.name,
          debuggerExample: words.examples.debugger,
          replaceExample: words.examples.replace,
          addExample: words.examples.add,
        }),
      };
      const ctx: EngineContext = {
        bug,
        runtime,
        budget,
        validate,
        options,
        session: new Session(model, budget),
        target,
        source,
        shown: [target],
        sources: new Map([[target.file, source]]),
        opening: [system, { role: "user", content: prompt }],
      };
      const loop: Loop = { steps: [], done: false, stop: "steps" };
      const candidates: EngineRun["candidates"] = [];
      try {
        await scientificDebugging(ctx, loop);
        const fromStep = lastIndex(loop.steps, (s) => s.done || s.conclusion === "supported");
        candidates.push(...(await generateFixes(ctx, loop.steps, fromStep)));
        if (!loop.done && !candidates.some((c) => c.validation.plausible)) {
          candidates.push(...(await ldbFallback(ctx, loop.steps)));
        }
      } catch (err) {
        if (!(err instanceof BudgetExceeded)) throw err;
        // The run's reason then says which limit stopped the model.
        budget.refuseTokens(err.message);
        loop.stop = "budget";
      }
      return { steps: loop.steps, candidates, done: loop.done, stop: loop.stop };
    },
  };
}

/** What one run of the engine shares between its stages. */
interface EngineContext {
  bug: BugContext;
  runtime: Runtime;
  budget: Budget;
  validate: Validate;
  options: LlmEngineOptions;
  session: Session;
  /** The function the model debugs and rewrites. */
  target: FunctionInfo;
  source: string;
  /** The functions whose whole body the model was shown: the only ones an answer may rewrite. */
  shown: FunctionInfo[];
  /** The sources of the files of `shown`, as they are before any patch. */
  sources: Map<string, string>;
  /** The system prompt and the bug report every conversation starts with. */
  opening: ChatMessage[];
}

interface Loop {
  steps: StepRecord[];
  done: boolean;
  stop: EngineRun["stop"];
}

/** AutoSD's loop: hypothesis, prediction and experiment from the model; observation from a real run; conclusion. */
async function scientificDebugging(ctx: EngineContext, loop: Loop): Promise<void> {
  const { bug, runtime, budget, session } = ctx;
  const messages = [...ctx.opening];
  for (let attempt = 1; attempt <= ctx.options.maxSteps && !loop.done; attempt++) {
    if (budget.exhausted()) {
      loop.stop = "budget";
      return;
    }
    if (attempt > 1)
      messages.push({ role: "user", content: renderPrompt("autosd-next", { attempt: String(attempt) }) });
    const proposal = await proposeStep(session, messages);
    if (!proposal.ok) {
      loop.steps.push(undecidedStep(proposal.problem));
      continue;
    }
    const step = proposal.value;
    budget.spendExperiment();
    const obs = await runtime.observe(bug.primaryTest, step.experiment, {
      timeoutMs: Math.max(1_000, Math.min(bug.experimentTimeoutMs, budget.remainingMs())),
    });
    messages.push({
      role: "user",
      content: renderPrompt("autosd-observe", { observation: obs.observation }),
    });
    const concluded = parseConclusion(await session.say(messages));
    messages.push({
      role: "assistant",
      content: `Conclusion: ${concluded.text}${concluded.done ? " <DEBUGGING DONE>" : ""}`,
    });
    loop.done = concluded.done || step.done;
    loop.steps.push({
      hypothesis: step.hypothesis,
      prediction: step.prediction,
      experiment: step.experiment,
      observation: obs.observation,
      conclusion: concluded.conclusion,
      done: loop.done,
      note: concluded.text,
      kind: obs.kind,
      durationMs: obs.durationMs,
    });
  }
  if (loop.done) loop.stop = "done";
}

/** The paper's fix generation: N rewrites of the target function from the evidence, each validated. */
async function generateFixes(
  ctx: EngineContext,
  steps: StepRecord[],
  fromStep: number,
): Promise<EngineRun["candidates"]> {
  const log = evidence(steps);
  const words = ctx.runtime.language.prompts;
  const named = namedFunctions(ctx, log);
  ctx.shown.push(...named);
  const request: ChatMessage[] = [
    ...ctx.opening,
    {
      role: "user",
      content: renderPrompt("autosd-fix", {
        evidence: log,
        function_name: ctx.target.qualname,
        file: ctx.target.file,
        fence: words.fence(ctx.target.file),
        module: words.moduleSummary(ctx.source, ctx.target.file, ctx.bug.functions),
        bodies: functionBodies(
          ctx,
          named,
          `The other functions of \`${ctx.target.file}\` that the debugging names, in full:`,
        ),
        definitionLine: words.definitionLine,
      }),
    },
  ];
  const answers = await ctx.session.ask(request, ctx.options.patches, ctx.options.temperature ?? 0.8);
  const tried = await validateAnswers(ctx, dedupe(answers, ctx), fromStep);
  if (!tried.some((c) => c.validation.plausible)) {
    tried.push(...(await anotherRound(ctx, request, tried, fromStep)));
  }
  return tried.map(({ candidate, validation }) => ({ candidate, validation }));
}

/** A validated rewrite with the answer it came from. */
interface Tried {
  candidate: Candidate;
  validation: Validation;
  answer: string;
}

async function validateAnswers(
  ctx: EngineContext,
  answers: { text: string; code: string }[],
  fromStep: number,
  carried: FileEdit[] = [],
): Promise<Tried[]> {
  const out: Tried[] = [];
  for (const answer of answers) {
    const rewrite = rewriteCandidate(ctx.target, ctx.bug.functions, ctx.source, answer.code, fromStep, {
      shown: ctx.shown,
      sources: ctx.sources,
      syntax: ctx.runtime.language.prompts.syntax,
    });
    if (!rewrite) continue;
    // The earlier repair's files the answer leaves alone stay repaired (a second fault's round).
    const kept = carried.filter((e) => !rewrite.edits.some((r) => r.file === e.file));
    const candidate = { ...rewrite, edits: [...rewrite.edits, ...kept] };
    out.push({ candidate, validation: await ctx.validate(candidate), answer: answer.text });
  }
  return out;
}

/**
 * One more round for rewrites that made the debugged test pass but not the whole job: the one
 * closest to it (fewest tests broken or left failing) goes back with those tests' failures, as
 * AutoSD's loop goes on with a new observation. For failing tests it left failing (a second
 * fault elsewhere), the localizer's functions the model has not seen yet are shown in full, and
 * it may rewrite them too.
 */
async function anotherRound(
  ctx: EngineContext,
  request: ChatMessage[],
  candidates: Tried[],
  fromStep: number,
): Promise<Tried[]> {
  const left = (c: Tried) => c.validation.brokenTests.length + c.validation.stillFailing.length;
  const failing = ctx.bug.failingTests;
  const closest = candidates
    .filter((c) => c.validation.stillFailing.length < failing.length && left(c) > 0)
    .sort((a, b) => left(a) - left(b))[0];
  const n = Math.min(ctx.options.patches, ctx.options.brokeRetries ?? 3);
  if (!closest || n < 1 || ctx.budget.exhausted()) return [];
  const { brokenTests, brokenFailures = [], stillFailing, stillFailures = [] } = closest.validation;
  const outcome = [
    ...(brokenTests.length > 0
      ? [`it breaks tests that passed before it:\n\n${failureList(brokenTests, brokenFailures)}`]
      : []),
    ...(stillFailing.length > 0
      ? [`these failing tests still fail with it:\n\n${failureList(stillFailing, stillFailures)}`]
      : []),
  ].join("\n\nAnd ");
  const unseen = stillFailing.length > 0 ? await localizedUnseen(ctx) : [];
  ctx.shown.push(...unseen);
  const answers = await ctx.session.ask(
    [
      ...request,
      { role: "assistant", content: closest.answer },
      {
        role: "user",
        content: renderPrompt("autosd-fix-broke", {
          fixed: failing.filter((t) => !stillFailing.includes(t)).join(", "),
          outcome,
          bodies: functionBodies(
            ctx,
            unseen,
            "Functions the localizer ranked that you have not seen yet, in full (another fault may be there):",
          ),
          function_name: ctx.target.qualname,
          fence: ctx.runtime.language.prompts.fence(ctx.target.file),
          more:
            unseen.length > 0
              ? " If a function shown above must change as well, write it in full in the same code block."
              : "",
        }),
      },
    ],
    n,
    ctx.options.temperature ?? 0.8,
  );
  const seen = new Set(candidates.map((c) => c.validation.diff));
  const carried = stillFailing.length > 0 ? closest.candidate.edits : [];
  return (await validateAnswers(ctx, dedupe(answers, ctx), fromStep, carried)).filter(
    (c) => !seen.has(c.validation.diff),
  );
}

/** Test failures for the model: each test's text, then how many more there were. */
function failureList(ids: string[], texts: { id: string; text: string }[]): string {
  return [
    ...texts.map((f) => `${f.id}:\n${f.text}`),
    ...(ids.length > texts.length
      ? [`(and ${ids.length - texts.length} more: ${ids.slice(texts.length).join(", ")})`]
      : []),
  ].join("\n\n");
}

/** Functions a body is shown of at most, and the longest shown. */
const MAX_BODIES = 3;
const MAX_BODY_LINES = 80;

/** Functions of the target's file that the debugging log names (`name` as a word), not yet shown. */
function namedFunctions(ctx: EngineContext, log: string): FunctionInfo[] {
  const words = new Set(log.match(/[\w$]+/g) ?? []);
  return ctx.bug.functions
    .filter((f) => f.file === ctx.target.file && !ctx.shown.some((s) => overlaps(s, f)))
    .filter((f) => f.endLine - f.startLine < MAX_BODY_LINES)
    .filter((f) => words.has(f.qualname.split(".").at(-1)!))
    .slice(0, MAX_BODIES);
}

/** The localizer's ranked functions (else SBFL's) the model has not seen, their files read. */
async function localizedUnseen(ctx: EngineContext): Promise<FunctionInfo[]> {
  const ranked = [...(ctx.bug.ranked ?? []), ...ctx.bug.suspicious];
  const out: FunctionInfo[] = [];
  for (const r of ranked) {
    const fn = ctx.bug.functions.find((f) => f.file === r.file && f.qualname === r.function);
    if (!fn || [...ctx.shown, ...out].some((s) => s.file === fn.file && overlaps(s, fn))) continue;
    if (fn.endLine - fn.startLine >= MAX_BODY_LINES) continue;
    if (!ctx.sources.has(fn.file)) ctx.sources.set(fn.file, await ctx.bug.readSource(fn.file));
    out.push(fn);
    if (out.length >= MAX_BODIES - 1) break;
  }
  return out;
}

/** Whole functions for a prompt, each with its file and name, under a heading; "" for none. */
function functionBodies(ctx: EngineContext, fns: FunctionInfo[], heading: string): string {
  if (fns.length === 0) return "";
  const words = ctx.runtime.language.prompts;
  const blocks = fns.map((f) => {
    const code = (ctx.sources.get(f.file) ?? "")
      .split("\n")
      .slice(f.startLine - 1, f.endLine)
      .join("\n");
    return `\`${f.qualname}\` in \`${f.file}\`:\n\n\`\`\`${words.fence(f.file)}\n${code}\n\`\`\``;
  });
  return `\n${heading}\n\n${blocks.join("\n\n")}\n\n`;
}

function overlaps(a: FunctionInfo, b: FunctionInfo): boolean {
  return a.file === b.file && a.startLine <= b.endLine && b.startLine <= a.endLine;
}

/**
 * LDB (Zhong et al.), the fallback when the loop reached no DONE and no fix validated:
 * each iteration traces the function as it now stands (the last regeneration, applied
 * to the tree for the trace), asks for a verdict per block and a repaired function,
 * and validates it. The verdicts go into the log (one step per iteration) and into the
 * next iteration's prompt, with why the last version still failed.
 */
async function ldbFallback(ctx: EngineContext, steps: StepRecord[]): Promise<EngineRun["candidates"]> {
  const { bug, budget, target } = ctx;
  const candidates: EngineRun["candidates"] = [];
  let current: { source: string; candidate?: Candidate } = {
    source: ctx.source
      .split("\n")
      .slice(target.startLine - 1, target.endLine)
      .join("\n"),
  };
  let error = bug.failure ? `${bug.failure.type}: ${bug.failure.message}` : "the test fails";
  let previous = "";
  for (let i = 0; i < (ctx.options.ldbIterations ?? 10) && !budget.exhausted(); i++) {
    budget.spendExperiment();
    const started = Date.now();
    const traceNow = () => ctx.runtime.trace(bug.primaryTest, target.file, target.qualname);
    const trace =
      current.candidate && bug.withEdits
        ? await bug.withEdits(current.candidate.edits, traceNow)
        : await traceNow();
    const [answer = ""] = await ctx.session.ask(
      [
        ctx.opening[0]!,
        {
          role: "user",
          content: renderPrompt("ldb-debug", {
            fence: ctx.runtime.language.prompts.fence(target.file),
            definitionLine: ctx.runtime.language.prompts.definitionLine,
            function_name: target.qualname,
            test_id: bug.primaryTest,
            error,
            function: current.source,
            trace: trace.rendered,
            previous,
          }),
        },
      ],
      1,
      0.8,
    );
    const verdicts = parseBlockVerdicts(answer);
    const wrong = verdicts.filter((v) => v.verdict === "wrong");
    const step: StepRecord = {
      hypothesis:
        wrong.length > 0
          ? `LDB judged ${wrong.map((v) => `block ${v.block} wrong (${v.explanation || "no reason given"})`).join("; ")}.`
          : `LDB judged no block of ${target.qualname} wrong (${verdicts.length} verdicts).`,
      prediction: `The function regenerated from these verdicts makes ${bug.primaryTest} pass.`,
      experiment: `trace ${target.file}:${target.qualname}`,
      observation: trace.rendered,
      conclusion: "undecided",
      done: false,
      note: "",
      kind: "trace",
      durationMs: Date.now() - started,
    };
    steps.push(step);
    const parsed = parseFunctionAnswer(answer, ctx.runtime.language);
    if (!parsed.ok) {
      step.note = `the answer held no usable function: ${parsed.problem}`;
      continue;
    }
    const candidate = rewriteCandidate(
      target,
      ctx.bug.functions,
      ctx.source,
      parsed.value,
      steps.length - 1,
      {
        shown: ctx.shown,
        sources: ctx.sources,
        syntax: ctx.runtime.language.prompts.syntax,
      },
    );
    if (!candidate) {
      step.note = "the regenerated function is the function as it was";
      continue;
    }
    const validation = await ctx.validate(candidate);
    candidates.push({ candidate, validation });
    step.conclusion = validation.plausible ? "supported" : "rejected";
    step.note = validation.plausible
      ? `the regenerated function passes the failing test and ${checkedOn(validation)}`
      : `the regenerated function does not validate: ${validation.rejectedBecause ?? "tests fail"}`;
    if (validation.plausible) break;
    current = { source: parsed.value, candidate };
    error = validation.rejectedBecause ?? error;
    previous =
      verdicts.length > 0
        ? `\nYour verdicts on the previous version, which still failed (${error}):\n${verdicts.map((v) => `Block ${v.block}: Verdict: ${v.verdict}. ${v.explanation}`).join("\n")}\n`
        : "";
  }
  return candidates;
}

/** One conversation's model calls, with the budget's token count kept. */
class Session {
  constructor(
    private readonly model: ChatModel,
    private readonly budget: Budget,
  ) {}

  async say(messages: ChatMessage[]): Promise<string> {
    const [text] = await this.ask(messages, 1, 0);
    return text ?? "";
  }

  async ask(messages: ChatMessage[], n: number, temperature: number): Promise<string[]> {
    const request: ChatRequest = { messages, temperature, ...(n > 1 ? { n } : {}) };
    const response = await this.model.complete(request);
    this.budget.spendTokens(response.usage.promptTokens + response.usage.completionTokens);
    return response.choices.map((c) => c.message.content ?? "");
  }
}

/** Asks for a step; a malformed one gets exactly one repair request. */
async function proposeStep(session: Session, messages: ChatMessage[]): Promise<ParseOutcome<ProposedStep>> {
  const first = await session.say(messages);
  const parsed = parseProposal(first);
  messages.push({ role: "assistant", content: first });
  if (parsed.ok) return parsed;
  messages.push({ role: "user", content: renderPrompt("autosd-repair-step", { problem: parsed.problem }) });
  const second = await session.say(messages);
  messages.push({ role: "assistant", content: second });
  const repaired = parseProposal(second);
  return repaired.ok
    ? repaired
    : { ok: false, problem: `${parsed.problem}; after one repair request: ${repaired.problem}` };
}

function undecidedStep(problem: string): StepRecord {
  return {
    hypothesis: "(the model's step could not be parsed)",
    prediction: "",
    experiment: "",
    observation: `[not run: ${problem}]`,
    conclusion: "undecided",
    done: false,
    note: `the step was malformed even after one repair request: ${problem}`,
    kind: "invalid",
    durationMs: 0,
  };
}

/** The localizer's first function when it ran, else the function of SBFL's most suspicious line. */
function targetFunction(bug: BugContext): FunctionInfo | undefined {
  for (const ranked of bug.ranked ?? []) {
    const fn = bug.functions.find((f) => f.file === ranked.file && f.qualname === ranked.function);
    if (fn) return fn;
  }
  for (const line of bug.suspicious) {
    const fn = bug.functions.find((f) => f.file === line.file && f.qualname === line.function);
    if (fn) return fn;
  }
  return undefined;
}

async function bugPrompt(
  bug: BugContext,
  runtime: Runtime,
  target: FunctionInfo,
  source: string,
): Promise<string> {
  const lines = source.split("\n");
  const numbered = lines
    .slice(target.startLine - 1, target.endLine)
    .map((l, i) => `${String(target.startLine + i).padStart(4)} ${l}`)
    .join("\n");
  const words = runtime.language.prompts;
  const testFile = runtime.files.testFileOf(bug.primaryTest);
  const testText = await bug.readSource(testFile).catch(() => "");
  return renderPrompt("autosd-bug", {
    location: `${target.file}:${target.startLine}, ${target.qualname}`,
    fence: words.fence(target.file),
    function: numbered,
    import: words.importOf(target.file, { testFile, testSource: testText }),
    file: target.file,
    test_id: bug.primaryTest,
    testFence: words.fence(testFile),
    test: await testSource(bug, runtime),
    error: bug.failure
      ? (bug.failure.text || `${bug.failure.type}: ${bug.failure.message}`).slice(0, 4000)
      : "(no error text)",
    report: bug.bugReport ? `\nBug report:\n${bug.bugReport.slice(0, 4000)}\n` : "",
    constraint: bug.constraint
      ? `\nThe maintainer's constraint on the fix (follow it):\n${bug.constraint.slice(0, 2000)}\n`
      : "",
  });
}

async function testSource(bug: BugContext, runtime: Runtime): Promise<string> {
  const [file, ...rest] = bug.primaryTest.split("::");
  const qualname = rest.join(".").replace(/\[.*\]$/, "");
  const fn = (await runtime.functions({ includeTests: true })).find(
    (f) => f.file === file && f.qualname === qualname,
  );
  if (!file || !fn) return "(test source not found)";
  return (await bug.readSource(file))
    .split("\n")
    .slice(fn.startLine - 1, fn.endLine)
    .join("\n");
}

/** The log for the fix prompt: rejected hypotheses are dropped, as in the paper. */
function evidence(steps: StepRecord[]): string {
  const kept = steps.filter((s) => s.conclusion !== "rejected" && s.experiment !== "");
  if (kept.length === 0) return "No hypothesis was supported by an experiment.";
  return kept
    .map((s, i) =>
      [
        `Attempt ${i + 1}.`,
        `Hypothesis: ${s.hypothesis}`,
        `Prediction: ${s.prediction}`,
        `Experiment: \`${s.experiment}\``,
        `Observation: \`${s.observation}\``,
        `Conclusion: ${s.note}`,
      ].join("\n"),
    )
    .join("\n\n");
}

/** The answers holding a function, each once: its text (for a follow-up turn) and its code block. */
function dedupe(answers: string[], ctx: EngineContext): { text: string; code: string }[] {
  const seen = new Set<string>();
  const out: { text: string; code: string }[] = [];
  for (const text of answers) {
    const parsed = parseFunctionAnswer(text, ctx.runtime.language);
    if (!parsed.ok) continue;
    const key = parsed.value.replace(/\s+/g, " ").trim();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text, code: parsed.value });
  }
  return out;
}

function lastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return i;
  return -1;
}
