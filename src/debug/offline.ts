import { functionLocator, type SuspiciousLine } from "../localize/sbfl.js";
import type { FailureEvidence, FunctionInfo, Observation, Runtime } from "../lang/types.js";
import { clip, codeSpan as code } from "../text.js";
import type { Budget } from "./budget.js";
import {
  applyEdits,
  formatEdit,
  formatEditExperiment,
  NO_EXCEPTION,
  renderValues,
  type Edit,
} from "../lang/experiment.js";
import { failureOnly, scoreCandidate } from "./evidence.js";
import { generateCandidates, type EngineCandidate } from "./generate.js";
import { progress, type Progress } from "./progress.js";
import { breadthFirst, lineWeight, linesToTry } from "./schedule.js";
import { editShape } from "./shape.js";
import type { BugContext, DebugEngine, EngineRun, StepRecord, Validate, Validation } from "./types.js";

/** Lines tried at most, so a flat SBFL ranking cannot spend the budget on hundreds of ties. */
const MAX_LINES = 25;
/** Lines the first failing test never ran that are still tried (after a first fix, against another failing test). */
const MAX_OTHER_LINES = 10;
/** Two-edit patches tried at most, and earlier failure-changing edits each new one is paired with. */
const MAX_PAIRS = 12;
const PAIR_WITH = 3;
/** Copies of an edit that moved the failure tried together with it, per edit and in all. */
const MAX_TWINS = 2;
const MAX_TWIN_PAIRS = 6;

export interface OfflineOptions {
  /** Lines ranked below this suspiciousness are not tried. */
  minScore?: number;
}

/** An edit that moved the failure on its own: half of a two-edit patch, perhaps. */
interface Tried {
  item: PlannedHypothesis;
  /** What the failing test ended with under this edit alone. */
  outcome: string;
  progress: Progress;
}

/**
 * The offline engine: AutoSD's loop with hypotheses from the candidate generator.
 * The failing test is first run once under the evidence helper; its live values (a
 * KeyError's mapping, the values a failed assertion compared, the `except` clauses the
 * exception went through...) rank the candidates, and the budget is spent breadth-first
 * over the suspicious lines (schedule.ts). At each line a debugger experiment first records
 * the real values there; each candidate is then an edit-and-run experiment, supported when
 * the failing test passes. Edits that each change the failure are combined into two-edit
 * patches; an edit that fixes the first failing test but not the others becomes the base
 * the next edits are tried on. The first supported edit that validates ends the loop (DONE).
 */
export function createOfflineEngine(options: OfflineOptions = {}): DebugEngine {
  return {
    name: "offline",
    async run(bug, runtime, budget, validate) {
      const steps: StepRecord[] = [];
      const candidates: EngineRun["candidates"] = [];
      const failureText = bug.failure ? `${bug.failure.type}: ${bug.failure.message}`.trim() : "the failure";
      const lines = linesToTry(
        rankLines(bug.suspicious, options.minScore ?? 0),
        (l) => bug.reaches?.(bug.primaryTest, l.file, l.line),
        MAX_LINES,
        MAX_OTHER_LINES,
      );
      const evidence =
        (await runtime.evidence(bug.primaryTest, {
          lines: lines.map((l) => ({ file: l.file, line: l.line })),
          timeoutMs: Math.max(1_000, Math.min(2 * bug.experimentTimeoutMs, budget.remainingMs())),
        })) ?? failureOnly(bug.failure);
      const plan = breadthFirst(await planHypotheses(bug, runtime, lines, evidence));
      const probed = new Map<string, string | undefined>();
      const changers: Tried[] = [];
      let pairsTried = 0;
      /** Places already tried together as the same slip made twice. */
      const twinned = new Set<string>();
      const testFile = bug.primaryTest.split("::")[0]!;
      /** An edit that made the first failing test pass while others still fail: later edits go on top. */
      let base: { item: PlannedHypothesis; test: string } | undefined;

      /** Runs one hypothesis (one edit, or several together) and validates it when the test passes. */
      const attempt = async (
        step: Omit<StepRecord, "observation" | "conclusion" | "done" | "note" | "kind" | "durationMs">,
        edits: Edit[],
        file: string,
        test: string,
        at: PlannedHypothesis,
      ): Promise<{ step: StepRecord; passed: boolean; validation?: Validation; obs: Observation }> => {
        const obs = await observe(runtime, budget, bug, step.experiment, test);
        const passed = obs.observation.includes(NO_EXCEPTION);
        const record: StepRecord = {
          ...step,
          observation: obs.observation,
          conclusion: passed ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
          done: false,
          note: passed ? "the failing test passes with this edit" : describeMiss(obs, failureText),
          kind: obs.kind,
          durationMs: obs.durationMs,
          file,
        };
        steps.push(record);
        if (!passed) return { step: record, passed, obs };
        record.done = true;
        const outcome = await toCandidate(edits, at, steps.length - 1, validate, bug);
        if (!outcome) {
          record.note = "the failing test passes, but the edit does not apply to the file as a patch";
          record.done = false;
          return { step: record, passed, obs };
        }
        candidates.push(outcome);
        if (outcome.validation.plausible) {
          record.decisive = true;
          record.note = `the failing test passes with this edit, and the whole suite passes with it as a patch (${outcome.validation.testsRun} tests)`;
        } else {
          record.note = `the failing test passes, but as a patch ${outcome.validation.rejectedBecause ?? `${outcome.validation.testsFailed} tests fail`}`;
        }
        return { step: record, passed, validation: outcome.validation, obs };
      };

      /** Candidates of lines the first failing test never reached: a second failing test may reach them. */
      const unreached: PlannedHypothesis[] = [];
      const queue = [...plan];
      for (let next = 0; next < queue.length; next++) {
        const item = queue[next]!;
        if (budget.exhausted()) return { steps, candidates, done: false, stop: "budget" };
        const { susp, rank, text, fn, candidate } = item;
        // Before editing a line, a debugger experiment records the real values there, in the test it is judged by.
        const probeTest = base?.test ?? bug.primaryTest;
        const lineKey = `${probeTest} ${susp.file}:${susp.line}`;
        // The coverage run already says whether the judging test runs this line: no experiment for one it never runs.
        if (
          !probed.has(lineKey) &&
          item.suspicious &&
          bug.reaches?.(probeTest, susp.file, susp.line) === false
        ) {
          probed.set(lineKey, undefined);
        }
        if (!probed.has(lineKey)) {
          const where = `${code(`${susp.file}:${susp.line}`)}${fn ? ` in ${code(fn.qualname)}` : ""}`;
          const probe = item.suspicious ? (item.probe?.expr ?? undefined) : undefined;
          if (!probe) {
            probed.set(lineKey, "");
          } else {
            const experiment = `b ${susp.file}:${susp.line} ;; c ;; p ${probe}`;
            // The evidence run already saw the values there in the first failing test: no run needed.
            const seenThere = item.probe?.values && item.probe.total ? item.probe : undefined;
            const obs: Observation =
              seenThere && probeTest === bug.primaryTest
                ? {
                    kind: "debugger",
                    experiment,
                    observation: renderValues(seenThere.values!, seenThere.total!),
                    durationMs: 0,
                  }
                : await observe(runtime, budget, bug, experiment, probeTest);
            const reached =
              obs.kind === "debugger" &&
              !/not reached|never reached|was not hit|not hit/i.test(obs.observation);
            probed.set(
              lineKey,
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
              prediction: `The failing test ${code(probeTest)} reaches line ${susp.line}, and ${code(probe)} there shows the state this line computes with.`,
              experiment,
              observation: obs.observation,
              conclusion: reached ? "supported" : obs.kind === "invalid" ? "undecided" : "rejected",
              done: false,
              note: reached
                ? `line ${susp.line} runs during the failing test; the values above are what its candidate edits are judged against`
                : `the experiment did not show line ${susp.line} running: ${clip(obs.observation, 160)}`,
              kind: obs.kind,
              durationMs: obs.durationMs,
            });
          }
        }
        const seen = probed.get(lineKey);
        // A line the failing test never reaches cannot be the fault it shows.
        if (seen === undefined) {
          if (!base) unreached.push(item);
          continue;
        }
        if (budget.exhausted()) return { steps, candidates, done: false, stop: "budget" };
        const claim = `${capitalize(candidate.claim)}.`;
        const because = item.because ? ` ${item.because}` : "";
        if (
          base &&
          (base.item.candidate.file !== candidate.file || base.item.candidate.line !== candidate.line)
        ) {
          // On top of the edit that fixed the first failing test, against a test still failing.
          const edits = [...base.item.candidate.edits, ...candidate.edits];
          const { validation } = await attempt(
            {
              hypothesis: `${claim} This is a second fault, beside the one fixed by ${code(formatEditExperiment(base.item.candidate.edits))}, which made ${code(bug.primaryTest)} pass while ${code(base.test)} still failed.${because}${seen}`,
              claim: `${claim} ${capitalize(base.item.candidate.claim)}.`,
              prediction: `With both edits, ${code(base.test)} passes (${code(NO_EXCEPTION)}).`,
              experiment: formatEditExperiment(edits),
            },
            edits,
            candidate.file,
            base.test,
            item,
          );
          if (validation?.plausible) return { steps, candidates, done: true, stop: "done" };
          continue;
        }
        const experiment = formatEditExperiment(candidate.edits);
        const { step, passed, validation, obs } = await attempt(
          {
            hypothesis: `${claim}${because}${seen}`,
            claim,
            prediction: `With ${describeEdit(text, candidate.edits, susp.line)}, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}) instead of failing with ${code(clip(failureText, 120))}.`,
            experiment,
          },
          candidate.edits,
          candidate.file,
          bug.primaryTest,
          item,
        );
        if (validation?.plausible) {
          const change = await observedChange(runtime, budget, bug, item);
          if (change) step.claim = `${step.claim} ${change}`;
          return { steps, candidates, done: true, stop: "done" };
        }
        if (
          passed &&
          validation &&
          validation.brokenTests.length === 0 &&
          validation.stillFailing.length > 0 &&
          !base
        ) {
          base = { item, test: validation.stillFailing[0]! };
          queue.push(...unreached.splice(0));
          // The same slip is often made twice (copied code): the edits like the first fix go next.
          queue.splice(next + 1, queue.length, ...alikeFirst(queue.slice(next + 1), candidate));
          continue;
        }
        const moved = passed || !bug.failure ? 0 : progress(bug.failure, obs.failure, testFile);
        if (moved === 0) continue;
        // Each of two edits moved the failure: together they may be the fix. At least one must have moved it clearly.
        const outcome = obs.observation.trim().split("\n")[0] ?? "";
        const partners = changers
          .filter(
            (c) =>
              c.item.candidate.file === candidate.file &&
              c.item.candidate.line !== candidate.line &&
              c.progress + moved >= 3,
          )
          .sort((a, b) => b.progress - a.progress)
          .slice(0, PAIR_WITH);
        changers.push({ item, outcome, progress: moved });
        // The same replacement where the same code is copied (another method doing the same call)
        // goes with this one at once.
        const source = await bug.readSource(candidate.file);
        const twins: { key: string; edits: Edit[]; claim: string }[] = [];
        for (const edit of candidate.edits.length === 1 ? copiesOf(source, candidate.edits[0]!) : []) {
          const at = `${candidate.file}:${edit.line}`;
          if (twins.some((t) => t.key === at)) continue;
          twins.push({
            key: at,
            edits: [edit],
            claim: `the same slip is copied at line ${edit.line}: ${formatEdit(edit)}`,
          });
        }
        for (const twin of twins.slice(0, MAX_TWINS)) {
          const key = [`${candidate.file}:${candidate.line}`, twin.key].sort().join(" ");
          if (twinned.size >= MAX_TWIN_PAIRS || budget.exhausted() || twinned.has(key)) continue;
          twinned.add(key);
          const edits = [...candidate.edits, ...twin.edits];
          const pair = await attempt(
            {
              hypothesis: `The same slip is made twice: ${candidate.claim}; and ${twin.claim}. The first edit alone changed the failure: the test ended with ${code(clip(outcome, 100))}.`,
              claim: `${claim} ${capitalize(twin.claim)}.`,
              prediction: `With both edits, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}).`,
              experiment: formatEditExperiment(edits),
            },
            edits,
            candidate.file,
            bug.primaryTest,
            item,
          );
          if (pair.validation?.plausible) return { steps, candidates, done: true, stop: "done" };
        }
        for (const other of partners) {
          if (pairsTried >= MAX_PAIRS || budget.exhausted()) break;
          pairsTried++;
          const edits = [...other.item.candidate.edits, ...candidate.edits];
          const pair = await attempt(
            {
              hypothesis: `Two places are wrong together: ${other.item.candidate.claim}; and ${candidate.claim}. Each edit alone changed the failure: with the first the test ended with ${code(clip(other.outcome, 100))}, with the second with ${code(clip(outcome, 100))}.`,
              claim: `${capitalize(other.item.candidate.claim)}. ${claim}`,
              prediction: `With both edits, ${code(bug.primaryTest)} passes (${code(NO_EXCEPTION)}).`,
              experiment: formatEditExperiment(edits),
            },
            edits,
            candidate.file,
            bug.primaryTest,
            other.item,
          );
          if (pair.validation?.plausible) return { steps, candidates, done: true, stop: "done" };
        }
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
  runtime: Runtime,
  budget: Budget,
  bug: BugContext,
  item: PlannedHypothesis,
): Promise<string | undefined> {
  const { susp, fn, source, candidate, probe } = item;
  const returned = probe?.returned;
  const params = probe?.params;
  if (!fn || !returned || !params || params.length === 0 || budget.exhausted()) return undefined;
  if (candidate.edits.some((e) => e.line !== susp.line || e.op !== "REPLACE")) return undefined;
  const edited = applyEdits(source, candidate.edits).source.split("\n")[susp.line - 1]!.trim();
  if (!edited.startsWith("return ")) return undefined;
  const expression = `(${returned}, ${edited.slice("return".length).trim()}, (${params.join(", ")},))`;
  const obs = await observe(
    runtime,
    budget,
    bug,
    `b ${susp.file}:${susp.line} ;; c ;; p ${expression}`,
    bug.primaryTest,
  );
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

interface PlannedHypothesis {
  rank: number;
  /** Schedulable: the line's rank, the generator's prior and the evidence's score. */
  lineRank: number;
  prior: number;
  score: number;
  weight: number;
  because?: string;
  /** The suspicious line the candidate belongs to (probed before it is tried). */
  susp: SuspiciousLine;
  /** False when the candidate's line is not itself among the suspicious lines. */
  suspicious: boolean;
  text: string;
  source: string;
  fn: FunctionInfo | undefined;
  /** What to print at the suspicious line before editing it (from the evidence helper). */
  probe?: FailureEvidence["probes"][number];
  candidate: EngineCandidate;
}

/** Every candidate as a hypothesis, with the evidence's score; breadthFirst orders them. */
async function planHypotheses(
  bug: BugContext,
  runtime: Runtime,
  lines: SuspiciousLine[],
  evidence: FailureEvidence | undefined,
): Promise<PlannedHypothesis[]> {
  const plan: PlannedHypothesis[] = [];
  const found = await generateCandidates(
    runtime,
    lines,
    evidence,
    2 * bug.experimentTimeoutMs + 10_000,
    bug.failingTests,
  );
  const top = Math.max(0, ...lines.map((l) => l.score));
  const functionAt = functionLocator(bug.functions);
  for (const candidate of found) {
    const source = await bug.readSource(candidate.file);
    const all = source.split("\n");
    const fn = functionAt(candidate.file, candidate.line);
    const exact = lines.findIndex((l) => l.file === candidate.file && l.line === candidate.suspect);
    const susp: SuspiciousLine = lines[exact] ?? {
      file: candidate.file,
      line: candidate.suspect,
      score: 0,
      failed: 0,
      passed: 0,
      ...(fn ? { function: fn.qualname } : {}),
    };
    const lineRank = exact >= 0 ? exact : lines.length;
    const changed = all[candidate.line - 1] ?? "";
    const first = candidate.edits[0];
    const shape =
      first?.op === "ADD"
        ? editShape(changed, undefined, first.stmt)
        : editShape(changed, applyEdits(source, candidate.edits).source.split("\n")[candidate.line - 1]);
    const scored = scoreCandidate(
      {
        file: candidate.file,
        line: candidate.line,
        ...(fn
          ? {
              function: {
                name: fn.qualname.split(".").at(-1)!,
                startLine: fn.startLine,
                endLine: fn.endLine,
              },
            }
          : {}),
        family: candidate.family,
        shape,
      },
      evidence,
    );
    const probe = evidence?.probes.find((p) => p.file === susp.file && p.line === susp.line);
    plan.push({
      rank: lineRank,
      lineRank,
      weight: lineWeight(susp.score, top),
      prior: candidate.prior,
      score: scored.score,
      ...(scored.because ? { because: scored.because } : {}),
      susp,
      suspicious: exact >= 0,
      text: all[susp.line - 1] ?? "",
      source,
      fn,
      ...(probe ? { probe } : {}),
      candidate,
    });
  }
  return plan;
}

async function observe(
  runtime: Runtime,
  budget: Budget,
  bug: BugContext,
  experiment: string,
  test: string,
): Promise<Observation> {
  budget.spendExperiment();
  return runtime.observe(test, experiment, {
    timeoutMs: Math.max(1_000, Math.min(bug.experimentTimeoutMs, budget.remainingMs())),
  });
}

/** The edits as a patch of their file, validated against the whole suite. */
async function toCandidate(
  edits: Edit[],
  at: PlannedHypothesis,
  fromStep: number,
  validate: Validate,
  bug: BugContext,
): Promise<EngineRun["candidates"][number] | undefined> {
  const file = at.candidate.file;
  // A fix may span files (the same slip copied into two modules): one file edit per file touched.
  const files = [...new Set(edits.map((e) => e.file ?? file))];
  const fileEdits = [];
  for (const f of files) {
    const before = await bug.readSource(f);
    const applied = applyEdits(
      before,
      edits.filter((e) => (e.file ?? file) === f),
    );
    if (applied.problems.length > 0) return undefined;
    fileEdits.push({ file: f, before, after: applied.source });
  }
  const candidate = {
    edits: fileEdits,
    fromStep,
    at: { file, line: at.candidate.line, ...(at.fn ? { function: at.fn.qualname } : {}) },
  };
  return { candidate, validation: await validate(candidate) };
}

/**
 * The hypotheses in their order, those whose edit is like `fix` first: the same replacement
 * (`issued` → `due` elsewhere), then the same kind of mistake. Stable otherwise.
 */
export function alikeFirst<T extends { candidate: Pick<EngineCandidate, "family" | "edits"> }>(
  items: T[],
  fix: Pick<EngineCandidate, "family" | "edits">,
): T[] {
  const alike = (c: T["candidate"]) => (sameReplacement(c, fix) ? 0 : c.family === fix.family ? 1 : 2);
  return items
    .map((item, order) => ({ item, order, rank: alike(item.candidate) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ item }) => item);
}

/** Characters on each side of a replaced text that a copy of its line must repeat. */
const COPY_CONTEXT = 8;

/**
 * The same replacement on the other lines of the file that hold the replaced text with the same
 * few characters around it (`_window(route, rate)` in two methods): where a copied slip sits.
 */
export function copiesOf(source: string, edit: Edit): Edit[] {
  if (edit.op !== "REPLACE") return [];
  const lines = source.split("\n");
  const text = lines[edit.line - 1] ?? "";
  const at = text.indexOf(edit.old);
  if (at < 0) return [];
  const before = text.slice(Math.max(0, at - COPY_CONTEXT), at);
  const after = text.slice(at + edit.old.length, at + edit.old.length + COPY_CONTEXT);
  const needle = before + edit.old + after;
  // Too little context would match unrelated lines.
  if (needle.trim().length < edit.old.length + COPY_CONTEXT) return [];
  const out: Edit[] = [];
  lines.forEach((other, i) => {
    if (i === edit.line - 1 || !other.includes(needle)) return;
    out.push({ ...edit, line: i + 1, old: needle, new: before + edit.new + after });
  });
  return out;
}

/** Whether two candidates make the same text replacement (`route` → `prefix`), wherever they make it. */
export function sameReplacement(
  a: Pick<EngineCandidate, "edits">,
  b: Pick<EngineCandidate, "edits">,
): boolean {
  const pairs = new Set(b.edits.flatMap((e) => (e.op === "REPLACE" ? [`${e.old}\0${e.new}`] : [])));
  return a.edits.some((e) => e.op === "REPLACE" && pairs.has(`${e.old}\0${e.new}`));
}

function rankLines(lines: SuspiciousLine[], minScore: number): SuspiciousLine[] {
  return lines.filter((l) => l.score > minScore);
}

const LOOP_PREFIX = "At each loop execution, the expression was: ";

/** The probe's observation in words, for the hypotheses of its line. */
function describeValues(probe: string, observation: string): string {
  if (observation.startsWith(LOOP_PREFIX)) {
    return `In the failing test, ${code(probe)} took the values ${code(clip(observation.slice(LOOP_PREFIX.length), 120))} as this line ran.`;
  }
  return `In the failing test, ${code(probe)} was ${code(clip(observation, 120))} at this line.`;
}

/** The edited line in words, for a prediction: the line as a REPLACE or DEL leaves it, or the statement an ADD inserts. */
function describeEdit(text: string, edits: Edit[], line: number): string {
  const single = edits.length === 1 ? edits[0]! : undefined;
  if (single?.op === "ADD") return `${code(single.stmt.trim())} inserted above line ${single.line}`;
  let edited = text;
  for (const e of edits) {
    if (e.line !== line || e.op === "ADD") return edits.map((x) => code(formatEdit(x))).join(" and ");
    edited = edited.split(e.old).join(e.op === "REPLACE" ? e.new : "");
  }
  return `line ${line} as ${code(edited.trim())}`;
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
