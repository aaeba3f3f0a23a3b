import type { Patch, Result, Step } from "../result.js";
import { clip, codeSpan as q } from "../text.js";
import { cell, code, codeBlock as fenced, summary as summaryText, text as plain } from "./inert.js";

/** What the report says that result.json does not carry: where it ran and how it was measured. */
export interface ReportMeta {
  /** Commit the failure was seen on, when known. */
  headSha?: string;
  /** CI context, when the job came from GitHub. */
  ci?: { workflow?: string; job?: string };
  sandbox: "docker" | "local";
  /** Failing-test reruns before repair. */
  reproduction: { failedRuns: number; totalRuns: number };
  /** Whole-suite counts before any patch, and after the proposed one. */
  suiteBefore?: { passed: number; failed: number };
  suiteAfter?: { passed: number; failed: number };
  /** Steps the loop was allowed (`s`). */
  maxSteps: number;
  /** Experiments actually run. */
  experiments: number;
  durationMs: number;
  /** The function and line the proposed patch changes. */
  fixedAt?: { file: string; line: number; function?: string };
  /** Localization runs that named the top function first, when several ran. */
  localizationRuns?: { agreeing: number; total: number };
  /** Per step, why its conclusion was reached (same order as result.steps). */
  notes?: string[];
}

/** Marks a body as a Hypofix report, so `/explain` audits the claims it states (its audit table). */
export const REPORT_MARKER = "<!-- hypofix:report -->";

/** Observations longer than this are folded, not dumped. */
const LONG_OBSERVATION = 160;
/** Rejected hypotheses shown one by one; the rest are folded together. */
const SHOWN_REJECTED = 6;

const MARK = { supported: "🟢", rejected: "🔴", undecided: "🟡" } as const;

/** The PR body (report.md). Pure: same result and meta, same text. */
export function renderReport(result: Result, meta: ReportMeta): string {
  const out: string[] = [];
  const patch = proposedPatch(result);
  out.push(`### ${title(result, meta)}`, "", intro(result, meta, patch), "");
  if (patch) out.push(fenced(patch.diff, "diff"), "");
  out.push(confidenceTable(result, meta, patch), "");
  out.push(...debuggingLog(result.steps, meta.notes ?? []));
  out.push(...otherCandidates(result, patch));
  out.push(...auditSection(result));
  out.push(footer(result, meta), "", REPORT_MARKER);
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

export function proposedPatch(result: Result): Patch | undefined {
  if (result.status !== "fixed") return undefined;
  return result.patches.find((p) => p.plausible && p.rejectedBecause === undefined);
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
    case "no-fix":
      return `No validated fix for ${tests}: what Hypofix learned`;
    case "not-reproduced":
      return result.failingTests.length > 0 ? `${tests} did not fail here` : "No failing test found";
    case "flaky":
      return `${tests} is flaky: not fixed`;
    case "error":
      return "Hypofix could not finish";
  }
}

function intro(result: Result, meta: ReportMeta, patch: Patch | undefined): string {
  const tests = result.failingTests.map((t) => code(t)).join(", ");
  const seen = [
    meta.headSha ? ` on ${code(meta.headSha.slice(0, 7))}` : "",
    meta.ci?.workflow
      ? ` (workflow **${plain(meta.ci.workflow)}**${meta.ci.job ? `, job **${plain(meta.ci.job)}**` : ""})`
      : "",
  ].join("");
  const lines: string[] = [];
  if (tests) lines.push(`${tests} failed${seen}.`);
  const sentence = result.reason.trim();
  const reason = sentence
    ? ` ${plain(sentence.charAt(0).toUpperCase() + sentence.slice(1))}${/[.!?]$/.test(sentence) ? "" : "."}`
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
    case "no-fix":
      lines.push(
        `Hypofix reproduced ${it} but found no patch that passes the failing ${result.failingTests.length > 1 ? "tests" : "test"} and keeps the suite green.${reason} The debugging log below shows what was ruled out.`,
      );
      break;
    case "not-reproduced":
      lines.push(`Nothing to fix: the failure did not reproduce in the sandbox.${reason}`);
      break;
    case "flaky":
      lines.push(
        `The test passed on ${meta.reproduction.totalRuns - meta.reproduction.failedRuns} of ${meta.reproduction.totalRuns} reruns, so it is reported as flaky, not fixed.${reason}`,
      );
      break;
    case "error":
      lines.push(`The run stopped before a conclusion.${reason}`);
      break;
  }
  return lines.join("\n");
}

type Row = [ok: boolean | null, name: string, value: string, evidence: string];

function confidenceTable(result: Result, meta: ReportMeta, patch: Patch | undefined): string {
  const c = result.confidence;
  const doneIndex = result.steps.findIndex((s) => s.done);
  const supportedBy = doneIndex >= 0 ? result.steps[doneIndex] : undefined;
  const rows: Row[] = [
    [
      c.reproduced,
      "failure reproduced",
      `${meta.reproduction.failedRuns} of ${meta.reproduction.totalRuns} runs`,
      c.reproduced
        ? `${result.failingTests.map((t) => q(testName(t))).join(", ")} failed each time in the ${meta.sandbox} sandbox`
        : `the test did not fail every time in the ${meta.sandbox} sandbox`,
    ],
    [
      c.done,
      "debugging concluded",
      c.done
        ? `${q("<DONE>")} at step ${doneIndex + 1} of ${result.steps.length}`
        : `no ${q("<DONE>")} in ${result.steps.length} steps`,
      supportedBy
        ? `hypothesis ${doneIndex + 1} supported by ${supportedBy.experiment.includes("RUN") ? "an edit-and-run" : "an experiment"}`
        : "no hypothesis was supported by an experiment",
    ],
    [
      patch ? c.suitePasses : null,
      "whole suite passes",
      meta.suiteAfter && patch
        ? `${meta.suiteAfter.passed} passed, ${meta.suiteAfter.failed} failed`
        : "not run",
      meta.suiteBefore
        ? `was ${meta.suiteBefore.passed} passed, ${meta.suiteBefore.failed} failed`
        : "no patch to check",
    ],
    [
      result.localization.length === 0 ? null : c.localizationAgreement >= 0.999,
      "localization agrees",
      meta.localizationRuns
        ? `${meta.localizationRuns.agreeing} of ${meta.localizationRuns.total} runs`
        : c.localizationAgreement >= 0.999
          ? "top-ranked function fixed"
          : "fix is elsewhere",
      localizationEvidence(result, meta),
    ],
    [
      c.audit === "not-run" ? null : c.audit === "confirmed",
      "audit",
      c.audit === "not-run" ? "not run" : c.audit,
      auditEvidence(result),
    ],
  ];
  const icon = (ok: boolean | null) => (ok === null ? "➖" : ok ? "✅" : "⚠️");
  return [
    "| confidence | | evidence |",
    "|---|---|---|",
    ...rows.map(
      ([ok, name, value, evidence]) => `| ${icon(ok)} ${cell(name)} | ${cell(value)} | ${cell(evidence)} |`,
    ),
  ].join("\n");
}

function localizationEvidence(result: Result, meta: ReportMeta): string {
  const top = result.localization[0];
  if (!top) return "no localization";
  const at = `${top.file}${top.line ? `:${top.line}` : ""}`;
  const fixedThere =
    meta.fixedAt &&
    meta.fixedAt.file === top.file &&
    (top.line === undefined || top.line === meta.fixedAt.line);
  return `ranked ${q(top.function)} (${q(at)}) first${meta.fixedAt ? (fixedThere ? ", where the fix is" : `; the fix is at ${q(`${meta.fixedAt.file}:${meta.fixedAt.line}`)}`) : ""}`;
}

function auditEvidence(result: Result): string {
  if (result.confidence.audit === "not-run") return result.audit.notes[0] ?? "no audit ran";
  const counts = { confirmed: 0, contradicted: 0, unverified: 0 };
  for (const claim of result.audit.claims) counts[claim.verdict] += 1;
  return `${counts.confirmed} confirmed, ${counts.contradicted} contradicted, ${counts.unverified} unverified; see below`;
}

function debuggingLog(steps: Step[], notes: string[]): string[] {
  if (steps.length === 0) return [];
  const out = ["#### Debugging log", ""];
  const rejected = steps.map((s, i) => [s, i] as const).filter(([s]) => s.conclusion === "rejected");
  const folded = new Set(rejected.slice(SHOWN_REJECTED).map(([, i]) => i));
  steps.forEach((step, i) => {
    if (!folded.has(i)) out.push(stepDetails(step, i, notes[i]), "");
  });
  if (folded.size > 0) {
    out.push(`<details><summary>🔴 ${folded.size} more rejected hypotheses</summary>`, "");
    for (const i of folded) {
      const s = steps[i]!;
      out.push(
        `- ${plain(firstSentence(s.hypothesis))} — ${code(s.experiment)} → ${code(clip(s.observation, 120))}`,
      );
    }
    out.push("", "</details>", "");
  }
  return out;
}

function stepDetails(step: Step, index: number, note: string | undefined): string {
  const state = step.conclusion + (step.done ? ", done" : "");
  const lines = [
    `<details><summary>${MARK[step.conclusion]} <b>Hypothesis ${index + 1} (${state}):</b> ${summaryText(firstSentence(step.hypothesis))}</summary>`,
    "",
    `**Hypothesis:** ${plain(step.hypothesis)}`,
    `**Prediction:** ${plain(step.prediction)}`,
    `**Experiment:** ${code(step.experiment)}`,
    observation(step.observation),
    `**Conclusion:** ${step.conclusion}${note ? ` — ${plain(note)}` : ""}.${step.done ? ` ${code("<DEBUGGING DONE>")}` : ""}`,
    "</details>",
  ];
  return lines.join("\n");
}

function observation(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= LONG_OBSERVATION && !trimmed.includes("\n"))
    return `**Observation:** ${code(trimmed)}`;
  const lineCount = trimmed.split("\n").length;
  return [
    `**Observation:** ${code(clip(trimmed.split("\n")[0] ?? "", 100))}`,
    `<details><summary>full observation (${lineCount} line${lineCount === 1 ? "" : "s"})</summary>`,
    "",
    fenced(trimmed),
    "",
    "</details>",
  ].join("\n");
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
      `Candidate ${i + 1}${p.fromStep !== undefined ? ` (from hypothesis ${p.fromStep + 1})` : ""}: ${plain(why)}${broken}`,
      "",
      fenced(p.diff, "diff"),
      "",
    );
  });
  out.push("</details>", "");
  return out;
}

function auditSection(result: Result): string[] {
  const { claims, behaviourChanges, unverified } = result.audit;
  if (claims.length === 0 && behaviourChanges.length === 0) return [];
  const icon = { confirmed: "✅", contradicted: "❌", unverified: "⚠️" } as const;
  const out = ["#### Audit"];
  if (claims.length > 0) {
    out.push("| claim | verdict | evidence |", "|---|---|---|");
    for (const c of claims)
      out.push(`| ${cell(c.revised ?? c.text)} | ${icon[c.verdict]} ${c.verdict} | ${cell(c.evidence)} |`);
  }
  if (behaviourChanges.length > 0) {
    out.push(
      "",
      `<details><summary>${behaviourChanges.length} behaviour change${behaviourChanges.length === 1 ? "" : "s"} observed</summary>`,
      "",
    );
    out.push("| | subject | before | after |", "|---|---|---|---|");
    for (const b of behaviourChanges)
      out.push(
        `| ${b.kind} | ${cell(q(b.subject))} | ${cell(q(clip(b.before, 80)))} | ${cell(q(clip(b.after, 80)))} |`,
      );
    out.push("", "</details>");
  }
  if (unverified.length > 0)
    out.push("", `Not reached by any test or recorded call: ${unverified.map((t) => code(t)).join(", ")}.`);
  out.push("");
  return out;
}

function footer(result: Result, meta: ReportMeta): string {
  const engine =
    result.engine === "offline"
      ? "Engine `offline` (no language model)"
      : `Engine \`llm\` (${result.usage.llmCalls} calls, ${result.usage.promptTokens + result.usage.completionTokens} tokens)`;
  const sandbox =
    meta.sandbox === "docker" ? "sandbox: docker, no network, non-root" : "sandbox: local (asked for)";
  const example = result.steps.find((s) => s.experiment.startsWith("b ")) ?? result.steps[0];
  const test = result.failingTests[0];
  const reproduce =
    example && test
      ? ` · Reproduce an observation locally: ${code(`hypofix observe . --test ${shellQuote(test)} --experiment ${shellQuote(example.experiment)}`)}`
      : "";
  return [
    "<details><summary>How this was produced</summary>",
    "",
    `${engine} · ${meta.experiments} experiments · ${formatDuration(meta.durationMs)} · ${sandbox}.`,
    `Rerun: comment ${code("/fix")}${reproduce}`,
    "</details>",
  ].join("\n");
}

/** POSIX single-quoting, so the command can be pasted as it is. */
function shellQuote(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function formatDuration(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function firstSentence(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  // A period or semicolon inside a code span (`a.b`, `0.5`) does not end a sentence.
  let inCode = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "`") inCode = !inCode;
    else if (!inCode && (ch === "." || ch === ";") && (i + 1 === line.length || line[i + 1] === " ")) {
      return clip(line.slice(0, i), 140);
    }
  }
  return clip(line, 140);
}
