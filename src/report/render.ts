import {
  hasPatch,
  type BehaviourChange,
  type Patch,
  type Result,
  type Signal,
  type Step,
} from "../result.js";
import { clip, codeSpan as q } from "../text.js";
import { cell, code, codeBlock, summary, text } from "./inert.js";

/** What the report says that result.json does not carry: how the run went, in numbers. */
export interface ReportMeta {
  /** Commit the failure was seen on, when known. */
  headSha?: string;
  /** CI context, when the job came from GitHub. */
  ci?: { workflow?: string; job?: string };
  /** Failing-test reruns before repair. */
  reproduction: { failedRuns: number; totalRuns: number };
  /** Whole-suite counts before any patch, and after the proposed one. */
  suiteBefore?: { passed: number; failed: number };
  suiteAfter?: { passed: number; failed: number };
  /** Tests that failed before the patch, were not targeted, and still fail with it. */
  otherFailures?: string[];
  /** Steps the loop was allowed (`s`). */
  maxSteps: number;
  /** Experiments actually run. */
  experiments: number;
  durationMs: number;
  /** The function and line the proposed patch changes. */
  fixedAt?: { file: string; line: number; function?: string };
  /** AutoFL runs whose first answer was the top function, when AutoFL ranked. */
  localizationRuns?: { agreeing: number; total: number };
  /** Why AutoFL contributed nothing, when it was asked to rank (SBFL's ranking stands). */
  localizerUnavailable?: string;
  /** Per step, why its conclusion was reached (same order as result.steps). */
  notes?: string[];
}

/** Marks a body as a Hypofix report, so `/explain` audits the claims it states (its audit table). */
export const REPORT_MARKER = "<!-- hypofix:report -->";

/** Observations longer than this are folded, not dumped. */
const LONG_OBSERVATION = 160;
/** Lines of the folded list of ruled-out hypotheses, at most. */
const MAX_FOLDED = 60;
/** Behaviour changes listed, at most. */
const MAX_CHANGES = 20;

const MARK = { supported: "🟢", rejected: "🔴", undecided: "🟡" } as const;

/*
 * The PR body (report.md), written for a reviewer: the cause in one sentence tied
 * to the observation that decided it, the diff, flags that each name their
 * evidence (and can come out ✅, ⚠️/❌, or ➖ when nothing was measured), the
 * steps that explain the fix, everything ruled out folded into one list, the
 * audit, and a footer with the command that reruns the decisive experiment.
 * Every untrusted piece goes through inert.ts.
 */

/** The PR body (report.md). Pure: same result and meta, same text. */
export function renderReport(result: Result, meta: ReportMeta): string {
  const out: string[] = [];
  const patch = proposedPatch(result);
  out.push(`### ${title(result, meta)}`, "", intro(result, meta, patch), "");
  if (result.constraint) out.push(constraintLine(result.constraint), "");
  const cause = causeLine(result);
  if (cause) out.push(cause, "");
  if (patch) out.push(codeBlock(patch.diff, "diff"), "");
  out.push(confidenceTable(result, meta, patch), "");
  out.push(...debuggingLog(result.steps, meta.notes ?? [], patch?.fromStep));
  out.push(...otherCandidates(result, patch));
  out.push(...auditSection(result));
  out.push(footer(result, meta), "", REPORT_MARKER);
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

/**
 * The report's first screen, for where the diff is shown otherwise (a review's suggested
 * changes): the title, the one-paragraph summary, the cause and the confidence flags.
 */
export function renderFirstScreen(result: Result, meta: ReportMeta): string {
  const patch = proposedPatch(result);
  const cause = causeLine(result);
  const out = [`### ${title(result, meta)}`, "", intro(result, meta, patch), ""];
  if (result.constraint) out.push(constraintLine(result.constraint), "");
  if (cause) out.push(cause, "");
  out.push(confidenceTable(result, meta, patch));
  return `${out.join("\n").trimEnd()}\n`;
}

/** The validated patch: proposed for `fixed`, shown (never proposed) for `partial`. */
export function proposedPatch(result: Result): Patch | undefined {
  if (!hasPatch(result.status)) return undefined;
  return result.patches.find((p) => p.plausible && p.rejectedBecause === undefined);
}

/**
 * The step whose observation explains the bug: the one whose edit is the patch (`fromStep`),
 * else one marked decisive, else the step that reached DONE.
 */
export function decisiveStep(steps: Step[], fromStep?: number): { step: Step; index: number } | undefined {
  if (fromStep !== undefined && steps[fromStep]) return { step: steps[fromStep], index: fromStep };
  const index = [steps.findIndex((s) => s.decisive), steps.findIndex((s) => s.done)].find((i) => i >= 0);
  return index === undefined ? undefined : { step: steps[index]!, index };
}

function testName(id: string): string {
  return id.split("::").at(-1) ?? id;
}

function title(result: Result, meta: ReportMeta): string {
  const tests = result.failingTests.map((t) => code(testName(t))).join(", ") || "the failing test";
  const where = meta.fixedAt?.function ?? meta.fixedAt?.file;
  switch (result.status) {
    case "fixed":
      return where ? `Fix ${code(where)} so ${tests} passes` : `Fix ${tests}`;
    case "partial": {
      const { fixes, stillFailing } = result.partialFix ?? { fixes: [], stillFailing: [] };
      const total = fixes.length + stillFailing.length;
      return `A patch${where ? ` to ${code(where)}` : ""} fixes ${fixes.length} of ${total} failing tests: not a fix`;
    }
    case "no-fix":
      return `No validated fix for ${tests}: what Hypofix learned`;
    case "not-reproduced":
      return result.failingTests.length > 0 ? `${tests} did not fail here` : "No failing test found";
    case "flaky":
      return result.flaky?.some((f) => f.kind === "order-dependent")
        ? `${tests} fails only after other tests: not fixed`
        : `${tests} is flaky: not fixed`;
    case "error":
      return "Hypofix could not finish";
  }
}

function intro(result: Result, meta: ReportMeta, patch: Patch | undefined): string {
  const tests = result.failingTests.map((t) => code(t)).join(", ");
  const seen = [
    meta.headSha ? ` on ${code(meta.headSha.slice(0, 7))}` : "",
    meta.ci?.workflow
      ? ` (workflow **${text(meta.ci.workflow)}**${meta.ci.job ? `, job **${text(meta.ci.job)}**` : ""})`
      : "",
  ].join("");
  const lines: string[] = [];
  if (tests) lines.push(`${tests} failed${seen}.`);
  const sentence = result.reason.trim();
  const reason = sentence
    ? ` ${text(sentence.charAt(0).toUpperCase() + sentence.slice(1))}${/[.!?]$/.test(sentence) ? "" : "."}`
    : "";
  const it = result.failingTests.length > 1 ? "them" : "it";
  switch (result.status) {
    case "fixed": {
      const at = meta.fixedAt
        ? ` found the cause in ${code(`${meta.fixedAt.file}:${meta.fixedAt.line}`)} and`
        : "";
      const checked =
        patch && patch.testsRun > 0
          ? `checked this patch against the whole suite (${patch.testsRun} tests)`
          : "checked this patch";
      lines.push(`Hypofix reproduced ${it},${at} ${checked}.`);
      break;
    }
    case "partial": {
      const { fixes, stillFailing } = result.partialFix ?? { fixes: [], stillFailing: [] };
      const list = (ids: string[]) => ids.map((t) => code(t)).join(", ");
      lines.push(
        `Hypofix reproduced ${it}. The patch below makes ${list(fixes)} pass and breaks no test that passed before, but ${list(stillFailing)} still ${stillFailing.length === 1 ? "fails" : "fail"} with it: it is shown, not proposed as a fix.`,
      );
      break;
    }
    case "no-fix":
      lines.push(
        `Hypofix reproduced ${it} but found no patch that passes the failing ${result.failingTests.length > 1 ? "tests" : "test"} and keeps the suite green.${reason}`,
      );
      break;
    case "not-reproduced":
      lines.push(`Nothing to fix: the failure did not reproduce in the sandbox.${reason}`);
      break;
    case "flaky":
      lines.push(`It failed in the suite but not every time it ran, so it is reported, not fixed.${reason}`);
      break;
    case "error":
      lines.push(`The run stopped before a conclusion.${reason}`);
      break;
  }
  return lines.join("\n");
}

/** The maintainer's `/fix` text (untrusted) and whether the engine followed it. */
function constraintLine(constraint: NonNullable<Result["constraint"]>): string {
  const how = constraint.used
    ? "The llm engine was given it as a constraint on the fix."
    : "The offline engine cannot use it: it tried its candidate edits as it always does.";
  return `**Maintainer's constraint** (from ${q("/fix")}): ${text(constraint.text)} ${how}`;
}

/** The cause in one sentence, tied to the observation that decided it. */
function causeLine(result: Result): string | undefined {
  if (!hasPatch(result.status) && result.status !== "no-fix") return undefined;
  const decisive = decisiveStep(result.steps, proposedPatch(result)?.fromStep);
  if (!decisive) return undefined;
  const { step, index } = decisive;
  const probe = probeBefore(result.steps, index);
  const seen = probe ? `${code(probe.experiment)} showed ${code(clip(probe.observation, 80))}, and ` : "";
  return (
    `**Cause** (hypothesis ${index + 1}): ${text(firstSentence(step.hypothesis, 300))}. ` +
    `Observed: ${seen}${code(step.experiment)} gave ${code(clip(step.observation, 120))}.`
  );
}

/** The probe that observed the decisive step's line before it was edited, if one ran. */
function probeBefore(steps: Step[], index: number): Step | undefined {
  const line = /^REPLACE\(([^,]+),/.exec(steps[index]?.experiment ?? "")?.[1];
  const i = steps.findLastIndex(
    (s, j) =>
      j < index &&
      s.role === "probe" &&
      s.conclusion === "supported" &&
      (!line || s.experiment.startsWith(`b ${line} `)),
  );
  return i >= 0 ? steps[i] : undefined;
}

/** ✅ measured and holds, ⚠️ measured and does not, ➖ nothing was measured. */
type Flag = "ok" | "warn" | "fail" | "none";
type Row = [flag: Flag, name: string, value: string, evidence: string];
const ICON: Record<Flag, string> = { ok: "✅", warn: "⚠️", fail: "❌", none: "➖" };

function confidenceTable(result: Result, meta: ReportMeta, patch: Patch | undefined): string {
  const rows: Row[] = [
    reproducedRow(result, meta),
    doneRow(result, patch),
    suiteRow(result, meta, patch),
    ...(patch ? [localizationRow(result, meta)] : []),
    auditRow(result, patch),
    ...(patch ? (result.signals ?? []).map(signalRow) : []),
  ];
  return [
    "| confidence | | evidence |",
    "|---|---|---|",
    ...rows.map(
      ([flag, name, value, evidence]) => `| ${ICON[flag]} ${name} | ${cell(value)} | ${cell(evidence)} |`,
    ),
  ].join("\n");
}

function reproducedRow(result: Result, meta: ReportMeta): Row {
  const { failedRuns, totalRuns } = meta.reproduction;
  const tests = result.failingTests.map((t) => q(testName(t))).join(", ");
  const where = result.sandbox ? ` in the ${result.sandbox.backend} sandbox` : "";
  if (result.confidence.reproduced) {
    const after = result.orderDependent ?? [];
    const ordered = new Set(after.map((o) => o.test));
    const alone = result.failingTests.filter((t) => !ordered.has(t));
    const evidence = [
      ...(alone.length > 0
        ? [`${alone.map((t) => q(testName(t))).join(", ")} failed in the suite and on every rerun${where}`]
        : []),
      ...after.map(
        (o) =>
          `${q(testName(o.test))} passes alone and failed on every rerun after ${o.precededBy.map((t) => q(testName(t))).join(", ")}${where} (order-dependent: every run of the job ran ${o.precededBy.length === 1 ? "that test" : "those tests"} first)`,
      ),
    ];
    return ["ok", "failure reproduced", `${failedRuns} of ${totalRuns} reruns`, evidence.join("; ")];
  }
  if (result.status === "flaky") {
    const evidence = (result.flaky ?? [])
      .map((f) =>
        f.kind === "order-dependent"
          ? `${q(testName(f.test))} fails after ${f.precededBy ? q(f.precededBy) : "the tests before it"} and passes alone`
          : `${q(testName(f.test))} failed in the suite and passed on some reruns`,
      )
      .join("; ");
    const kind = result.flaky?.some((f) => f.kind === "order-dependent") ? "order-dependent" : "flaky";
    return [
      "warn",
      "failure reproduced",
      `${kind}: failed on ${failedRuns} of ${totalRuns} reruns`,
      evidence || result.reason,
    ];
  }
  if (result.status === "not-reproduced" && result.failingTests.length > 0) {
    return ["warn", "failure reproduced", "no", `${tests} passed${where}`];
  }
  return ["none", "failure reproduced", "not measured", result.reason || "no failing test to rerun"];
}

/**
 * Whether debugging concluded, for the patch that is shown: `<DONE>` counts only at the
 * hypothesis whose edit is the patch, and a patch from anywhere else says where it came from.
 */
function doneRow(result: Result, patch: Patch | undefined): Row {
  const steps = result.steps;
  if (steps.length === 0)
    return ["none", "debugging concluded", "no steps ran", "the run ended before debugging"];
  const doneAt = steps.findIndex((s) => s.done);
  const doneElsewhere = (own: number | undefined) => {
    const other = steps.findIndex((s, i) => s.done && i !== own);
    return other < 0
      ? ""
      : `; ${q("<DONE>")} at step ${other + 1} vouches for another edit (${q(clip(steps[other]!.experiment, 80))})`;
  };
  if (patch) {
    const own = patch.fromStep;
    const step = own !== undefined ? steps[own] : undefined;
    if (!step) {
      return [
        "warn",
        "debugging concluded",
        "the patch comes from no step",
        `no hypothesis's experiment made this edit${doneElsewhere(undefined)}`,
      ];
    }
    const seen = `${q(step.experiment)} gave ${q(clip(step.observation, 80))}`;
    if (step.done) {
      return [
        "ok",
        "debugging concluded",
        `${q("<DONE>")} at step ${own! + 1} of ${steps.length}`,
        `hypothesis ${own! + 1}, whose edit is the patch: ${seen}`,
      ];
    }
    return [
      "warn",
      "debugging concluded",
      `the patch is step ${own! + 1}'s edit, which did not conclude`,
      `hypothesis ${own! + 1}: ${seen}${doneElsewhere(own)}`,
    ];
  }
  if (doneAt < 0) {
    return [
      "warn",
      "debugging concluded",
      `no ${q("<DONE>")} in ${steps.length} steps`,
      "no hypothesis was confirmed by an experiment",
    ];
  }
  const step = steps[doneAt]!;
  return [
    "ok",
    "debugging concluded",
    `${q("<DONE>")} at step ${doneAt + 1} of ${steps.length}`,
    `hypothesis ${doneAt + 1}: ${q(step.experiment)} gave ${q(clip(step.observation, 80))}`,
  ];
}

function suiteRow(result: Result, meta: ReportMeta, patch: Patch | undefined): Row {
  if (!patch || !meta.suiteAfter) return ["none", "whole suite passes", "not run", "no patch to check"];
  const after = `${meta.suiteAfter.passed} passed, ${meta.suiteAfter.failed} failed`;
  const before = meta.suiteBefore
    ? `was ${meta.suiteBefore.passed} passed, ${meta.suiteBefore.failed} failed`
    : "";
  if (result.confidence.suitePasses) return ["ok", "whole suite passes", after, before];
  const others = meta.otherFailures ?? [];
  const listed =
    others.length > 0
      ? `failing before the patch too, not targeted: ${others.map((t) => q(t)).join(", ")}`
      : "";
  return ["warn", "whole suite passes", after, [listed, before].filter(Boolean).join("; ")];
}

function localizationRow(result: Result, meta: ReportMeta): Row {
  const top = result.localization[0];
  const fixed = meta.fixedAt;
  const fixedIn = fixed ? q(fixed.function ?? `${fixed.file}:${fixed.line}`) : "the patched code";
  const rankOfFix = fixed
    ? result.localization.findIndex(
        (e) => e.file === fixed.file && (!fixed.function || e.function === fixed.function),
      )
    : -1;
  const where =
    rankOfFix >= 0 ? `; the fix is in ${fixedIn}, ranked #${rankOfFix + 1}` : `; the fix is in ${fixedIn}`;
  if (meta.localizationRuns && top) {
    const { agreeing, total } = meta.localizationRuns;
    return [
      agreeing === total ? "ok" : "warn",
      "localization agrees",
      `${agreeing} of ${total} AutoFL runs`,
      `${agreeing} of ${total} runs named ${q(top.function)} first${where}`,
    ];
  }
  const sbfl = top ? `SBFL ranked ${q(top.function)} first${where}` : "SBFL ranked nothing";
  if (meta.localizerUnavailable !== undefined) {
    return [
      "none",
      "localization agrees",
      "AutoFL unavailable, SBFL only",
      `${clip(meta.localizerUnavailable, 160)} ${sbfl}`.trim(),
    ];
  }
  const agrees = result.confidence.localizationAgreement >= 0.999;
  return [
    agrees ? "ok" : "warn",
    "localization agrees",
    agrees ? "SBFL's top function was fixed" : "the fix is elsewhere",
    sbfl,
  ];
}

function auditRow(result: Result, patch: Patch | undefined): Row {
  const counts = { confirmed: 0, contradicted: 0, unverified: 0 };
  for (const claim of result.audit.claims) counts[claim.verdict] += 1;
  const tally = `${counts.confirmed} confirmed, ${counts.contradicted} contradicted, ${counts.unverified} unverified`;
  if (!patch) return ["none", "audit", "not run", "no patch to audit"];
  if (counts.contradicted > 0) return ["fail", "audit", "contradicted", `${tally}; see below`];
  if (counts.confirmed > 0) return ["ok", "audit", "confirmed", `${tally}; see below`];
  if (counts.unverified > 0) return ["warn", "audit", "unverified", `${tally}; see below`];
  return ["none", "audit", "no claim to check", result.audit.notes[0] ?? "the explanation states no claim"];
}

/** A signal that tells a correct patch from a plausible one: ⚠️ tripped, with what was seen. */
function signalRow(signal: Signal): Row {
  const flag: Flag = !signal.measured ? "none" : signal.tripped ? "warn" : "ok";
  return [flag, signal.name, signal.value, signal.evidence];
}

/** A step worth reading on its own: the decisive one, supported hypotheses, observations that ran. */
function shownAlone(step: Step): boolean {
  if (step.decisive || step.done) return true;
  if (step.role === "probe") return false;
  return step.conclusion === "supported";
}

function debuggingLog(steps: Step[], notes: string[], fromStep: number | undefined): string[] {
  if (steps.length === 0) return [];
  const out = ["#### Debugging log", ""];
  const decisive = decisiveStep(steps, fromStep);
  // The probe at the decisive line is the observation a reviewer needs beside the decisive step.
  const probe = decisive ? probeBefore(steps, decisive.index) : undefined;
  const probeOfDecisive = probe ? steps.indexOf(probe) : -1;
  const alone = new Set(steps.flatMap((s, i) => (shownAlone(s) || i === probeOfDecisive ? [i] : [])));
  steps.forEach((step, i) => {
    if (alone.has(i)) out.push(stepDetails(step, i, notes[i]), "");
  });
  const folded = steps.map((s, i) => [s, i] as const).filter(([, i]) => !alone.has(i));
  if (folded.length > 0) {
    const what = `${folded.length} other step${folded.length === 1 ? "" : "s"}: ruled out or uninformative`;
    out.push(`<details><summary>🔴 ${what}</summary>`, "");
    for (const [s, i] of folded.slice(0, MAX_FOLDED)) {
      out.push(
        `- step ${i + 1}, ${state(s)}: ${text(firstSentence(s.hypothesis, 140))} — ${code(s.experiment)} → ${code(clip(s.observation, 100))}`,
      );
    }
    if (folded.length > MAX_FOLDED) out.push(`- …and ${folded.length - MAX_FOLDED} more (see result.json).`);
    out.push("", "</details>", "");
  }
  return out;
}

/** A step's state in words: probes "observed" (or "not reached"), hypotheses their conclusion. */
function state(step: Step): string {
  if (step.role === "probe")
    return step.conclusion === "supported"
      ? "observed"
      : step.conclusion === "rejected"
        ? "not reached"
        : "undecided";
  return step.conclusion + (step.done ? ", done" : "");
}

function stepDetails(step: Step, index: number, note: string | undefined): string {
  const probe = step.role === "probe";
  const mark = probe
    ? step.conclusion === "supported"
      ? "🔍"
      : MARK[step.conclusion]
    : MARK[step.conclusion];
  const label = probe ? "Probe" : "Hypothesis";
  return [
    `<details><summary>${mark} <b>${label} ${index + 1} (${state(step)}${step.decisive ? ", decisive" : ""}):</b> ${summary(firstSentence(step.hypothesis, 140))}</summary>`,
    "",
    `**${label}:** ${text(step.hypothesis)}`,
    `**Prediction:** ${text(step.prediction)}`,
    `**Experiment:** ${code(step.experiment)}`,
    ...observation(step.observation),
    `**Conclusion:** ${state(step)}${note ? ` — ${text(note)}` : ""}.${step.done ? ` ${code("<DEBUGGING DONE>")}` : ""}`,
    "",
    "</details>",
  ].join("\n");
}

function observation(raw: string): string[] {
  const trimmed = raw.trim();
  if (trimmed.length <= LONG_OBSERVATION && !trimmed.includes("\n"))
    return [`**Observation:** ${code(trimmed)}`];
  const lineCount = trimmed.split("\n").length;
  return [
    `**Observation:** ${code(clip(trimmed.split("\n")[0] ?? "", 100))}`,
    "",
    `<details><summary>full observation (${lineCount} line${lineCount === 1 ? "" : "s"})</summary>`,
    "",
    codeBlock(trimmed),
    "",
    "</details>",
    "",
  ];
}

function otherCandidates(result: Result, proposed: Patch | undefined): string[] {
  const others = result.patches.filter((p) => p !== proposed);
  if (others.length === 0) return [];
  const out = [
    `<details><summary>${others.length} other candidate patch${others.length === 1 ? "" : "es"}, not proposed</summary>`,
    "",
  ];
  others.forEach((p, i) => {
    const why =
      p.rejectedBecause ??
      (p.plausible ? "plausible, not the first" : `${p.testsFailed} of ${p.testsRun} tests failed`);
    const broken = p.brokenTests.length > 0 ? `; breaks ${p.brokenTests.map((t) => code(t)).join(", ")}` : "";
    out.push(
      `Candidate ${i + 1}${p.fromStep !== undefined ? ` (from hypothesis ${p.fromStep + 1})` : ""}: ${text(why)}${broken}`,
      "",
      codeBlock(p.diff, "diff"),
      "",
    );
  });
  out.push("</details>", "");
  return out;
}

/** Test outcomes that turned from failing to passing: the patch's evidence, not a claim. */
function fixEvidence(result: Result): BehaviourChange[] {
  return result.audit.behaviourChanges.filter(
    (b) => b.kind === "test" && result.failingTests.includes(b.subject) && b.after === "passed",
  );
}

function auditSection(result: Result): string[] {
  const { claims, behaviourChanges, unverified } = result.audit;
  if (claims.length === 0 && behaviourChanges.length === 0) return [];
  const icon = { confirmed: "✅", contradicted: "❌", unverified: "⚠️" } as const;
  const out = ["#### Audit", ""];
  if (claims.length > 0) {
    out.push("| claim | verdict | evidence |", "|---|---|---|");
    for (const c of claims)
      out.push(`| ${cell(c.text)} | ${icon[c.verdict]} ${c.verdict} | ${cell(c.evidence)} |`);
    out.push("");
  } else {
    out.push("The explanation states no claim that execution could check.", "");
  }
  const fixed = fixEvidence(result);
  if (fixed.length > 0) {
    out.push(
      `Evidence for the patch: ${fixed.map((b) => `${code(b.subject)} was ${code(clip(b.before, 80))} before and passes after`).join("; ")}.`,
      "",
    );
  }
  if (behaviourChanges.length > 0) {
    const shown = behaviourChanges.slice(0, MAX_CHANGES);
    out.push(
      `<details><summary>${behaviourChanges.length} behaviour change${behaviourChanges.length === 1 ? "" : "s"} observed</summary>`,
      "",
      "| | test or call | before | after |",
      "|---|---|---|---|",
      ...shown.map(
        (b) =>
          `| ${b.kind} | ${cell(q(b.subject))} | ${cell(q(clip(b.before, 80)))} | ${cell(q(clip(b.after, 80)))} |`,
      ),
      ...(behaviourChanges.length > shown.length
        ? ["", `…and ${behaviourChanges.length - shown.length} more (see result.json).`]
        : []),
      "",
      "</details>",
      "",
    );
  }
  if (unverified.length > 0)
    out.push(`Not reached by any test or recorded call: ${unverified.map((f) => code(f)).join(", ")}.`, "");
  return out;
}

function footer(result: Result, meta: ReportMeta): string {
  const engine =
    result.engine === "offline"
      ? "Engine `offline` (no language model)"
      : `Engine \`llm\` (${result.usage.llmCalls} calls, ${result.usage.promptTokens + result.usage.completionTokens} tokens)`;
  const decisive = decisiveStep(result.steps, proposedPatch(result)?.fromStep)?.step;
  const example = decisive ?? result.steps.find((s) => s.experiment.startsWith("b ")) ?? result.steps[0];
  const test = result.failingTests[0];
  const reproduce =
    example && test
      ? ` · Reproduce the ${decisive ? "decisive " : ""}observation locally: ${code(`hypofix observe . --test ${shellQuote(test)} --experiment ${shellQuote(example.experiment)}`, { max: 1_000 })}`
      : "";
  return [
    "<details><summary>How this was produced</summary>",
    "",
    `${engine} · ${meta.experiments} experiments · ${formatDuration(meta.durationMs)} · ${sandboxText(result)}.`,
    ...environmentLine(result.environment),
    `Rerun: comment ${code("/fix")}${reproduce}`,
    "",
    "</details>",
  ].join("\n");
}

/** Which environment the tests ran in: image, language version, cached or built, the setup, options set aside. */
function environmentLine(env: Result["environment"]): string[] {
  if (!env) return [];
  // Results written before the language port name only Python, pytest and pytestSetAside.
  const setAside = env.optionsSetAside ?? env.pytestSetAside;
  const parts = [
    env.runtime
      ? text(env.runtime, { max: 60 })
      : env.python
        ? `Python ${/^[0-9.]+$/.test(env.python) ? env.python : text(env.python, { max: 40 })}`
        : undefined,
    env.image === "local"
      ? undefined
      : env.cached
        ? "cached, no build"
        : env.setup.length > 0
          ? "built for this job"
          : "base image",
    env.setup.length > 0
      ? `setup ${env.setup.map((c) => code(c)).join(", ")}${env.setupSource ? ` (${text(env.setupSource)})` : ""}`
      : env.setupSource
        ? `no setup (${text(env.setupSource)})`
        : "no setup",
    env.workingDirectory ? `from ${code(env.workingDirectory)}` : undefined,
    setAside.length > 0
      ? `${text(env.testRunner ?? "pytest", { max: 40 })} options set aside: ${setAside.map((o) => code(o)).join(", ")}`
      : undefined,
  ].filter((p) => p !== undefined);
  return [`Environment ${code(env.image)}: ${parts.join(" · ")}.`];
}

function sandboxText(result: Result): string {
  const s = result.sandbox;
  if (!s) return "sandbox: not recorded";
  if (s.backend === "docker") return "sandbox: docker, no network, non-root";
  if (s.fallback)
    return `⚠️ sandbox: local, without isolation (${s.asked} was asked for: ${text(s.fallback)})`;
  return "sandbox: local (asked for)";
}

/** POSIX single-quoting, so the command can be pasted as it is. */
function shellQuote(value: string): string {
  return /^[\w./:@=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function formatDuration(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The first sentence of a text, without its final period; a `.` inside a code span ends nothing. */
function firstSentence(value: string, max: number): string {
  const line = value.trim().split("\n")[0] ?? "";
  let inCode = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "`") inCode = !inCode;
    else if (!inCode && (ch === "." || ch === ";") && (i + 1 === line.length || line[i + 1] === " ")) {
      return clip(line.slice(0, i), max);
    }
  }
  return clip(line.replace(/\.$/, ""), max);
}
