import type { SuspiciousLine } from "../localize/sbfl.js";
import type { PythonRuntime } from "../lang/python/runtime.js";
import type { FunctionInfo, Observation } from "../lang/python/types.js";
import { clip, codeSpan as code } from "../text.js";
import type { Budget } from "./budget.js";
import { applyEdits, formatEdit } from "../lang/python/experiment.js";
import { NO_EXCEPTION } from "../lang/python/render.js";
import {
  BUILTINS,
  KEYWORDS,
  candidatesForLine,
  initialisationCandidates,
  renderEdits,
  scopeNames,
  tokenize,
  type Candidate as Template,
} from "./templates.js";
import type { BugContext, DebugEngine, EngineRun, StepRecord, Validate } from "./types.js";

/** Lines tried at most, so a flat SBFL ranking cannot spend the budget on hundreds of ties. */
const MAX_LINES = 25;

/** Calls a debugger print may make without changing the program's state. */
const PURE_CALLS = new Set([
  "len",
  "range",
  "abs",
  "min",
  "max",
  "sum",
  "int",
  "float",
  "str",
  "bool",
  "round",
  "sorted",
  "list",
  "tuple",
  "set",
  "isinstance",
  "repr",
  "type",
  "lower",
  "upper",
  "strip",
  "startswith",
  "endswith",
  "get",
  "keys",
  "values",
  "items",
  "count",
  "index",
  "split",
  "join",
]);

export interface OfflineOptions {
  /** Lines ranked below this suspiciousness are not tried. */
  minScore?: number;
}

/**
 * The offline engine: hypotheses from SBFL-ranked lines × repair templates.
 * At each line, a debugger experiment first records the real values there; then
 * each template is an edit-and-run experiment, supported when the failing test
 * passes. The first supported edit that validates ends the loop with DONE.
 */
export function createOfflineEngine(options: OfflineOptions = {}): DebugEngine {
  return {
    name: "offline",
    async run(bug, runtime, budget, validate) {
      const steps: StepRecord[] = [];
      const candidates: EngineRun["candidates"] = [];
      const failureText = bug.failure ? `${bug.failure.type}: ${bug.failure.message}`.trim() : "the failure";
      const lines = rankLines(bug.suspicious, options.minScore ?? 0).slice(0, MAX_LINES);
      const plan = [...(await unboundNameHypotheses(bug)), ...(await planHypotheses(bug, lines))];
      // Hypotheses drawn from the failure itself need no probe: the failure is their observation.
      const probed = new Map<number, string | undefined>([
        [UNBOUND, ` The failing test stopped with ${code(clip(failureText, 160))}.`],
      ]);
      for (const item of plan) {
        if (budget.exhausted()) return { steps, candidates, done: false, stop: "budget" };
        const { susp, rank, text, fn, scope, template, source } = item;
        // Before editing a line, a debugger experiment records the real values there.
        if (!probed.has(item.lineIndex)) {
          const where = `${code(`${susp.file}:${susp.line}`)}${fn ? ` in ${code(fn.qualname)}` : ""}`;
          const probe = probeExpression(text, scope);
          if (!probe) {
            probed.set(item.lineIndex, "");
          } else {
            const experiment = `b ${susp.file}:${susp.line} ;; c ;; p ${probe}`;
            const obs = await observe(runtime, budget, bug, experiment);
            const reached =
              obs.kind === "debugger" &&
              !/not reached|never reached|was not hit|not hit/i.test(obs.observation);
            probed.set(
              item.lineIndex,
              reached
                ? ` ${describeValues(probe, obs.observation)}`
                : obs.kind === "invalid"
                  ? ""
                  : undefined,
            );
            // A probe gathers values and tests no hypothesis: reaching the line decides nothing about a fault.
            steps.push({
              role: "probe",
              hypothesis: `SBFL points at ${where}: ${code(text.trim())}, ranked #${rank + 1} of the lines a patch may change (${susp.failed} failing and ${susp.passed} passing tests ran it; score ${susp.score.toFixed(2)}).`,
              prediction: `The failing test ${code(bug.primaryTest)} reaches line ${susp.line}, and ${code(probe)} there shows the state this line computes with.`,
              experiment,
              observation: obs.observation,
              conclusion: reached ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
              done: false,
              note: reached
                ? `line ${susp.line} runs during the failing test; the values above are what its templates are judged against`
                : `the experiment did not show line ${susp.line} running: ${clip(obs.observation, 160)}`,
              kind: obs.kind,
              durationMs: obs.durationMs,
            });
          }
        }
        const seen = probed.get(item.lineIndex);
        // A line the failing test never reaches cannot be the fault it shows.
        if (seen === undefined) continue;
        if (budget.exhausted()) return { steps, candidates, done: false, stop: "budget" };
        const experiment = renderEdits(template.edits);
        const obs = await observe(runtime, budget, bug, experiment);
        const passed = obs.observation.includes(NO_EXCEPTION);
        const step: StepRecord = {
          hypothesis: `${capitalize(template.claim)}.${seen}`,
          claim: `${capitalize(template.claim)}.`,
          prediction: `With line ${susp.line} as ${code(editedLine(text, template.edits))}, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}) instead of failing with ${code(clip(failureText, 120))}.`,
          experiment,
          observation: obs.observation,
          conclusion: passed ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
          done: false,
          note: passed ? "the failing test passes with this edit" : describeMiss(obs, failureText),
          kind: obs.kind,
          durationMs: obs.durationMs,
          file: susp.file,
        };
        steps.push(step);
        if (!passed) continue;
        // The experiment confirmed the hypothesis: the failing test passes with the edit.
        step.done = true;
        const outcome = await toCandidate(template, susp, fn, source, steps.length - 1, validate);
        if (!outcome) {
          step.note = "the failing test passes, but the edit does not apply to the file as a patch";
          step.done = false;
          continue;
        }
        candidates.push(outcome);
        if (outcome.validation.plausible) {
          step.decisive = true;
          const change = await observedChange(runtime, budget, bug, item);
          if (change) step.claim = `${step.claim} ${change}`;
          step.note = `the failing test passes with this edit, and the whole suite passes with it as a patch (${outcome.validation.testsRun} tests)`;
          return { steps, candidates, done: true, stop: "done" };
        }
        step.note = `the failing test passes, but as a patch ${outcome.validation.rejectedBecause ?? `${outcome.validation.testsFailed} tests fail`}`;
      }
      return { steps, candidates, done: steps.some((s) => s.done), stop: "exhausted" };
    },
  };
}

/**
 * The behaviour change a validated `return` edit makes, as a checkable claim: the
 * function's arguments and the returned value before and with the edit, read with
 * one debugger experiment at the line during the failing test (single hits only).
 * The audit checks it against the calls it records and replays.
 */
async function observedChange(
  runtime: PythonRuntime,
  budget: Budget,
  bug: BugContext,
  item: PlannedHypothesis,
): Promise<string | undefined> {
  const { susp, text, fn, source, template } = item;
  const tokens = tokenize(text).filter((t) => t.kind !== "comment");
  if (!fn || tokens[0]?.text !== "return" || tokens.length < 2 || budget.exhausted()) return undefined;
  const params = parameters(source.split("\n"), fn);
  const edited = editedLine(text, template.edits).trim();
  if (!params || params.length === 0 || !edited.startsWith("return ")) return undefined;
  const returned = (line: string) => line.trim().slice("return".length).trim();
  const probe = `(${returned(text)}, ${returned(edited)}, (${params.join(", ")},))`;
  const obs = await observe(runtime, budget, bug, `b ${susp.file}:${susp.line} ;; c ;; p ${probe}`);
  const values = obs.kind === "debugger" ? tupleItems(obs.observation.trim()) : undefined;
  if (values?.length !== 3) return undefined;
  const [before, after, args] = values as [string, string, string];
  if (before === after) return undefined;
  return `${code(fn.qualname)} called with ${code(args)} returned ${code(before)} before the patch and returns ${code(after)} with it (in ${code(bug.primaryTest)}).`;
}

/** The top-level items of a tuple's repr (`(1, 'a, b', (2,))` → `1`, `'a, b'`, `(2,)`); undefined if it is not one. */
export function tupleItems(repr: string): string[] | undefined {
  if (!repr.startsWith("(") || !repr.endsWith(")") || repr.includes("\n")) return undefined;
  const items: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 1;
  for (let i = 1; i < repr.length - 1; i++) {
    const ch = repr[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      items.push(repr.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = repr.slice(start, -1).trim();
  if (last) items.push(last);
  return depth === 0 && !quote ? items : undefined;
}

/** The names of a function's parameters (without self and cls); undefined for `*args`, `**kwargs` and other forms. */
export function parameters(lines: string[], fn: FunctionInfo): string[] | undefined {
  const header = lines.slice(fn.startLine - 1, fn.endLine).join("\n");
  const open = header.indexOf("(");
  if (!/^\s*(?:async\s+)?def\s/.test(header.slice(0, open)) || open < 0) return undefined;
  let depth = 0;
  let end = -1;
  for (let i = open; i < header.length && end < 0; i++) {
    if ("([{".includes(header[i]!)) depth++;
    else if (")]}".includes(header[i]!) && --depth === 0) end = i;
  }
  if (end < 0) return undefined;
  const names: string[] = [];
  for (const part of header.slice(open + 1, end).split(",")) {
    const name = /^\s*([A-Za-z_]\w*)\s*(?:[:=]|$)/.exec(part)?.[1];
    if (part.trim() === "") continue;
    if (!name) return undefined;
    if (name !== "self" && name !== "cls") names.push(name);
  }
  return names;
}

interface PlannedHypothesis {
  lineIndex: number;
  rank: number;
  susp: SuspiciousLine;
  text: string;
  source: string;
  fn: FunctionInfo | undefined;
  scope: string[];
  template: Template;
}

/**
 * Template ranks by tier: single-operator flips (0-1) on every line first, then
 * constant and bound changes (2-5), which more often pass a test without being
 * the fix, then broad guesses such as another variable (6+).
 */
const TIERS = [1, 5];

/**
 * Every (line, template) hypothesis, in the order they are tried: by tier,
 * then by the line's suspiciousness, then by the template's own order.
 */
async function planHypotheses(bug: BugContext, lines: SuspiciousLine[]): Promise<PlannedHypothesis[]> {
  const plan: PlannedHypothesis[] = [];
  for (const [rank, susp] of lines.entries()) {
    const source = await bug.readSource(susp.file);
    const all = source.split("\n");
    const text = all[susp.line - 1] ?? "";
    const fn = enclosing(bug.functions, susp);
    const scope = fn ? scopeNames(all.slice(fn.startLine - 1, fn.endLine).join("\n")) : [];
    for (const template of candidatesForLine({ line: susp.line, text, scope })) {
      const edits = template.edits.map((e) => ({ ...e, file: susp.file }));
      plan.push({ lineIndex: rank, rank, susp, text, source, fn, scope, template: { ...template, edits } });
    }
  }
  const tier = (p: PlannedHypothesis) => TIERS.filter((max) => p.template.rank > max).length;
  return plan
    .map((p, order) => ({ p, order }))
    .sort((a, b) => tier(a.p) - tier(b.p) || a.order - b.order)
    .map(({ p }) => p);
}

/** The plan index of hypotheses drawn from the failure message rather than from a ranked line. */
const UNBOUND = -1;

/** A NameError or UnboundLocalError names a variable: initialising it is the first hypothesis. */
async function unboundNameHypotheses(bug: BugContext): Promise<PlannedHypothesis[]> {
  const failure = bug.failure;
  if (!failure || !/^(NameError|UnboundLocalError)$/.test(failure.type)) return [];
  const name = /'(\w+)'/.exec(failure.message)?.[1];
  const files = new Set(bug.suspicious.map((l) => l.file));
  const frame = [...failure.frames].reverse().find((f) => files.has(f.file));
  if (!name || !frame) return [];
  const fn = enclosing(bug.functions, frame);
  if (!fn) return [];
  const source = await bug.readSource(frame.file);
  const all = source.split("\n");
  const lines = all.slice(fn.startLine, fn.endLine).map((text, i) => ({ line: fn.startLine + 1 + i, text }));
  const scope = scopeNames(all.slice(fn.startLine - 1, fn.endLine).join("\n"));
  return initialisationCandidates(name, lines).map((template) => {
    const line = template.edits[0]!.line;
    const susp: SuspiciousLine = {
      file: frame.file,
      line,
      function: fn.qualname,
      score: 0,
      failed: 0,
      passed: 0,
    };
    const edits = template.edits.map((e) => ({ ...e, file: frame.file }));
    return {
      lineIndex: UNBOUND,
      rank: 0,
      susp,
      text: all[line - 1] ?? "",
      source,
      fn,
      scope,
      template: { ...template, edits },
    };
  });
}

async function observe(
  runtime: PythonRuntime,
  budget: Budget,
  bug: BugContext,
  experiment: string,
): Promise<Observation> {
  budget.spendExperiment();
  return runtime.observe(bug.primaryTest, experiment, {
    timeoutMs: Math.max(1_000, Math.min(bug.experimentTimeoutMs, budget.remainingMs())),
  });
}

async function toCandidate(
  template: Template,
  susp: SuspiciousLine,
  fn: FunctionInfo | undefined,
  before: string,
  fromStep: number,
  validate: Validate,
): Promise<EngineRun["candidates"][number] | undefined> {
  const applied = applyEdits(before, template.edits);
  if (applied.problems.length > 0) return undefined;
  const candidate = {
    edits: [{ file: susp.file, before, after: applied.source }],
    fromStep,
    at: { file: susp.file, line: susp.line, ...(fn ? { function: fn.qualname } : {}) },
  };
  return { candidate, validation: await validate(candidate) };
}

function rankLines(lines: SuspiciousLine[], minScore: number): SuspiciousLine[] {
  return lines.filter((l) => l.score > minScore);
}

function enclosing(functions: FunctionInfo[], l: { file: string; line: number }): FunctionInfo | undefined {
  let inner: FunctionInfo | undefined;
  for (const f of functions) {
    if (f.file !== l.file || l.line < f.startLine || l.line > f.endLine) continue;
    if (!inner || f.endLine - f.startLine < inner.endLine - inner.startLine) inner = f;
  }
  return inner;
}

/**
 * What to print at a line before editing it: the condition, returned value or
 * right-hand side when evaluating it twice is harmless, else the variables it reads.
 */
export function probeExpression(text: string, scope: string[]): string | undefined {
  const tokens = tokenize(text).filter((t) => t.kind !== "comment");
  if (tokens.length === 0) return undefined;
  const first = tokens[0]!.text;
  const body = (from: number, to: number) => text.slice(tokens[from]!.start, tokens[to]!.end).trim();
  let expr: string | undefined;
  if (
    (first === "if" || first === "elif" || first === "while") &&
    tokens.at(-1)!.text === ":" &&
    tokens.length > 2
  ) {
    expr = body(1, tokens.length - 2);
  } else if (first === "return" && tokens.length > 1) {
    expr = body(1, tokens.length - 1);
  } else if (first === "for") {
    const inAt = tokens.findIndex((t) => t.text === "in");
    if (inAt > 0 && tokens.at(-1)!.text === ":") expr = body(inAt + 1, tokens.length - 2);
  } else {
    const assign = tokens.findIndex((t) => /^(=|\+=|-=|\*=|\/=|\/\/=|%=)$/.test(t.text));
    if (assign >= 0 && assign < tokens.length - 1) {
      expr = body(assign + 1, tokens.length - 1);
      if (tokens[assign]!.text !== "=") expr = `(${body(0, assign - 1)}, ${expr})`;
    }
  }
  const literal = (e: string) => !tokenize(e).some((t) => t.kind === "name" && !KEYWORDS.has(t.text));
  const impure = (e: string) =>
    tokenize(e).some(
      (t, i, all) => t.kind === "name" && all[i + 1]?.text === "(" && !PURE_CALLS.has(t.text),
    ) || /\byield\b|\bawait\b|:=|\blambda\b/.test(e);
  if (expr && !impure(expr) && !literal(expr)) return expr;
  // Names read on the line: for an assignment, only those right of `=` exist before the line runs.
  const assignAt = tokens.findIndex((t) => t.text === "=");
  const names = [
    ...new Set(
      tokens
        .slice(assignAt + 1)
        .filter(
          (t, i, rest) =>
            t.kind === "name" &&
            !KEYWORDS.has(t.text) &&
            !BUILTINS.has(t.text) &&
            rest[i - 1]?.text !== "." &&
            rest[i + 1]?.text !== "(",
        )
        .map((t) => t.text)
        .filter((n) => scope.length === 0 || scope.includes(n)),
    ),
  ];
  if (names.length === 0) return undefined;
  return names.length === 1 ? names[0] : `(${names.join(", ")})`;
}

const LOOP_PREFIX = "At each loop execution, the expression was: ";

/** The probe's observation in words, for the hypotheses of its line. */
function describeValues(probe: string, observation: string): string {
  if (observation.startsWith(LOOP_PREFIX)) {
    return `In the failing test, ${code(probe)} took the values ${code(clip(observation.slice(LOOP_PREFIX.length), 120))} as this line ran.`;
  }
  return `In the failing test, ${code(probe)} was ${code(clip(observation, 120))} at this line.`;
}

/** The line as the template's edits leave it. */
function editedLine(text: string, edits: Template["edits"]): string {
  let line = text;
  for (const e of edits) {
    if (e.op === "REPLACE") line = line.split(e.old).join(e.new);
    else if (e.op === "DEL") line = line.split(e.old).join("");
    else return formatEdit(e);
  }
  return line.trim();
}

function describeMiss(obs: Observation, failureText: string): string {
  if (obs.kind === "invalid") return `the experiment could not run: ${clip(obs.observation, 160)}`;
  const first = obs.observation.trim().split("\n")[0] ?? "";
  if (first.startsWith(failureText.split("\n")[0] ?? "\u0000"))
    return "the failing test still fails the same way";
  return `the failing test still fails, now with ${clip(first, 160)}: this line matters, but this edit is not the fix`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
