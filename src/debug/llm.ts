import { BudgetExceeded } from "../llm/errors.js";
import { renderPrompt } from "../llm/prompts.js";
import type { ChatMessage, ChatModel, ChatRequest } from "../llm/types.js";
import type { FunctionInfo, Runtime } from "../lang/types.js";
import type { Budget } from "./budget.js";
import { moduleContext } from "./module-context.js";
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
      const system: ChatMessage = { role: "system", content: renderPrompt("autosd-system", {}) };
      const ctx: EngineContext = {
        bug,
        runtime,
        budget,
        validate,
        options,
        session: new Session(model, budget),
        target,
        source,
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
  const request: ChatMessage[] = [
    ...ctx.opening,
    {
      role: "user",
      content: renderPrompt("autosd-fix", {
        evidence: evidence(steps),
        function_name: ctx.target.qualname,
        file: ctx.target.file,
        module: moduleContext(ctx.source, ctx.target.file, ctx.bug.functions),
      }),
    },
  ];
  const answers = await ctx.session.ask(request, ctx.options.patches, ctx.options.temperature ?? 0.8);
  const tried = await validateAnswers(ctx, dedupe(answers), fromStep);
  if (!tried.some((c) => c.validation.plausible)) {
    tried.push(...(await brokeOthersRound(ctx, request, tried, fromStep)));
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
): Promise<Tried[]> {
  const out: Tried[] = [];
  for (const answer of answers) {
    const candidate = rewriteCandidate(ctx.target, ctx.bug.functions, ctx.source, answer.code, fromStep);
    if (!candidate) continue;
    out.push({ candidate, validation: await ctx.validate(candidate), answer: answer.text });
  }
  return out;
}

/**
 * One more round for a rewrite that made the failing tests pass but broke others: the
 * conversation goes on with the broken tests' failures, as AutoSD's loop goes on with a
 * new observation; the one that broke fewest goes back.
 */
async function brokeOthersRound(
  ctx: EngineContext,
  request: ChatMessage[],
  candidates: Tried[],
  fromStep: number,
): Promise<Tried[]> {
  const broke = candidates
    .filter((c) => c.validation.stillFailing.length === 0 && c.validation.brokenTests.length > 0)
    .sort((a, b) => a.validation.brokenTests.length - b.validation.brokenTests.length)[0];
  const n = Math.min(ctx.options.patches, ctx.options.brokeRetries ?? 3);
  if (!broke || n < 1 || ctx.budget.exhausted()) return [];
  const { brokenTests, brokenFailures = [] } = broke.validation;
  const failures = [
    ...brokenFailures.map((f) => `${f.id}:\n${f.text}`),
    ...(brokenTests.length > brokenFailures.length
      ? [
          `(and ${brokenTests.length - brokenFailures.length} more: ${brokenTests.slice(brokenFailures.length).join(", ")})`,
        ]
      : []),
  ].join("\n\n");
  const answers = await ctx.session.ask(
    [
      ...request,
      { role: "assistant", content: broke.answer },
      {
        role: "user",
        content: renderPrompt("autosd-fix-broke", {
          test_id: ctx.bug.primaryTest,
          failures,
          function_name: ctx.target.qualname,
        }),
      },
    ],
    n,
    ctx.options.temperature ?? 0.8,
  );
  const seen = new Set(candidates.map((c) => c.validation.diff));
  return (await validateAnswers(ctx, dedupe(answers), fromStep)).filter((c) => !seen.has(c.validation.diff));
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
    const parsed = parseFunctionAnswer(answer);
    if (!parsed.ok) {
      step.note = `the answer held no usable function: ${parsed.problem}`;
      continue;
    }
    const candidate = rewriteCandidate(target, ctx.bug.functions, ctx.source, parsed.value, steps.length - 1);
    if (!candidate) {
      step.note = "the regenerated function is the function as it was";
      continue;
    }
    const validation = await ctx.validate(candidate);
    candidates.push({ candidate, validation });
    step.conclusion = validation.plausible ? "supported" : "rejected";
    step.note = validation.plausible
      ? `the regenerated function passes the failing test and the whole suite (${validation.testsRun} tests)`
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
  return renderPrompt("autosd-bug", {
    location: `${target.file}:${target.startLine}, ${target.qualname}`,
    function: numbered,
    test_id: bug.primaryTest,
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
function dedupe(answers: string[]): { text: string; code: string }[] {
  const seen = new Set<string>();
  const out: { text: string; code: string }[] = [];
  for (const text of answers) {
    const parsed = parseFunctionAnswer(text);
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
