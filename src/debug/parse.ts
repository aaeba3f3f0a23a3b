import { defaultLanguage } from "../lang/registry.js";
import type { Language } from "../lang/types.js";
import type { Conclusion } from "../result.js";

/** The model's hypothesis, prediction and experiment for one step. */
export interface ProposedStep {
  hypothesis: string;
  prediction: string;
  experiment: string;
  /** The model wrote `<DEBUGGING DONE>` instead of (or after) a hypothesis. */
  done: boolean;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problem: string };

export const DONE_TOKEN = "<DEBUGGING DONE>";

/**
 * Parses what the model wrote after `Hypothesis:`. Strict: exactly one
 * `Prediction:` and one `Experiment:` section, and the experiment is exactly
 * one script in backticks. Anything the model wrote as an observation is
 * dropped: observations come from real runs only.
 */
export function parseProposal(text: string): ParseOutcome<ProposedStep> {
  const cut = text.search(/^\s*(\*\*)?Observation(\*\*)?\s*:/im);
  const body = (cut >= 0 ? text.slice(0, cut) : text).replace(/^\s*(\*\*)?Hypothesis(\*\*)?\s*:/i, "");
  const sections = splitSections(body, ["Prediction", "Experiment"]);
  if (typeof sections === "string") return { ok: false, problem: sections };
  const hypothesis = sections.head.trim();
  const prediction = sections.Prediction!.trim();
  if (!hypothesis) return { ok: false, problem: "the hypothesis is empty" };
  if (!prediction) return { ok: false, problem: "the prediction is empty" };
  const experimentText = sections.Experiment!.replace(DONE_TOKEN, "");
  const scripts = experimentScripts(experimentText);
  if (scripts.length === 0) {
    return {
      ok: false,
      problem:
        "the experiment is not wrapped in backticks: write it as Experiment: `b file.py:12 ;; c ;; p x`",
    };
  }
  if (scripts.length > 1) {
    return {
      ok: false,
      problem: `the step has ${scripts.length} experiments; write exactly one experiment in backticks per step`,
    };
  }
  return {
    ok: true,
    value: { hypothesis, prediction, experiment: scripts[0]!, done: text.includes(DONE_TOKEN) },
  };
}

/**
 * The backtick-wrapped scripts of an experiment section. One wrap whose inner backticks all sit
 * inside double-quoted arguments is one script: a JS template literal in `REPLACE(f:4, "`a`", ...)`.
 */
function experimentScripts(text: string): string[] {
  const whole = /^(`+)([\s\S]*)\1$/.exec(text.trim());
  if (whole && !whole[2]!.replace(/"(?:[^"\\]|\\.)*"/g, "").includes("`")) {
    const script = whole[2]!.trim();
    return script === "" ? [] : [script];
  }
  return [...text.matchAll(/(`+)([\s\S]*?)\1/g)].map((m) => m[2]!.trim()).filter((s) => s !== "");
}

function splitSections(text: string, names: string[]): string | { head: string; [name: string]: string } {
  const result: { head: string; [name: string]: string } = { head: "" };
  const headers = [
    ...text.matchAll(new RegExp(`^\\s*(?:\\*\\*)?(${names.join("|")})(?:\\*\\*)?\\s*:(?:\\*\\*)?`, "gim")),
  ];
  for (const name of names) {
    const count = headers.filter((h) => h[1]!.toLowerCase() === name.toLowerCase()).length;
    if (count === 0) return `the step has no "${name}:" section`;
    if (count > 1)
      return `the step has ${count} "${name}:" sections; write one hypothesis, one prediction and one experiment`;
  }
  result.head = text.slice(0, headers[0]!.index);
  headers.forEach((h, i) => {
    const start = h.index + h[0].length;
    const end = i + 1 < headers.length ? headers[i + 1]!.index : text.length;
    const name = names.find((n) => n.toLowerCase() === h[1]!.toLowerCase())!;
    result[name] = text.slice(start, end);
  });
  return result;
}

export interface ParsedConclusion {
  conclusion: Conclusion;
  text: string;
  done: boolean;
}

/**
 * Parses what the model wrote after `Conclusion:`. The verdict is the first of
 * supported / rejected / undecided (with "not supported" read as rejected);
 * text with none of them is undecided.
 */
export function parseConclusion(text: string): ParsedConclusion {
  const body = text.replace(/^\s*(\*\*)?Conclusion(\*\*)?\s*:/i, "").trim();
  const done = body.includes(DONE_TOKEN);
  const clean = body.replace(DONE_TOKEN, "").trim();
  const match = /\b(not supported|unsupported|supported|rejected|refuted|undecided|inconclusive)\b/i.exec(
    clean,
  );
  const word = match?.[1]?.toLowerCase();
  const conclusion: Conclusion =
    word === "supported"
      ? "supported"
      : word === "rejected" || word === "refuted" || word === "not supported" || word === "unsupported"
        ? "rejected"
        : "undecided";
  return { conclusion, text: clean, done };
}

/** Extracts the code of a repaired function from a fix answer: the first fenced block, else the whole text. */
export function parseFunctionAnswer(
  text: string,
  language: Pick<Language, "name" | "prompts"> = defaultLanguage(),
): ParseOutcome<string> {
  const fence = /(`{3,})[a-zA-Z0-9_-]*\n([\s\S]*?)\n\1/.exec(text);
  const source = (fence ? fence[2]! : text).replace(/\s+$/, "");
  if (!source.split("\n").some((l) => language.prompts.syntax.nameOf(l) !== undefined)) {
    return { ok: false, problem: `the answer has no ${language.name} function definition` };
  }
  return { ok: true, value: source };
}

/** LDB's verdict on one basic block of a trace. */
export interface BlockVerdict {
  block: number;
  verdict: "correct" | "wrong";
  explanation: string;
}

/**
 * The per-block verdicts of an LDB answer (`Block 2: Verdict: wrong. why`), in
 * order, each block once; lines in any other form are ignored.
 */
export function parseBlockVerdicts(text: string): BlockVerdict[] {
  const verdicts = new Map<number, BlockVerdict>();
  for (const m of text.matchAll(
    /^\s*(?:\*\*)?\[?Block\s+(\d+)\]?(?:\*\*)?\s*:\s*(?:\*\*)?Verdict(?:\*\*)?\s*:\s*(?:\*\*)?(correct|wrong|incorrect)\b(?:\*\*)?[.:]?\s*(.*)$/gim,
  )) {
    const block = Number(m[1]);
    if (verdicts.has(block)) continue;
    const word = m[2]!.toLowerCase();
    verdicts.set(block, {
      block,
      verdict: word === "correct" ? "correct" : "wrong",
      explanation: m[3]!.trim(),
    });
  }
  return [...verdicts.values()];
}
