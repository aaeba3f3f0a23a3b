import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { RawFrame } from "../../frames.js";
import { minimizeFrames } from "../../frames.js";
import type { TestFailure, TestOutcome, TestResult } from "../../types.js";
import type { JsRunner } from "./detect.js";
import { testId } from "./ids.js";

/*
 * The runner's structured report of one run, read into the port's test results: Jest's and
 * Vitest's JSON (one shape), and the JSON our Mocha and node:test reporters write
 * (helpers/). Untrusted data: parsed with schemas, capped, never evaluated.
 */

const MAX_TEXT = 8_000;
/** The port's type of a test stopped at its limit, as the Python runtime names it (pipeline/reproduce.ts reads it). */
export const TIMEOUT_TYPE = "TestTimeout";
/**
 * Each runner's words for a test stopped at its own timeout: Jest, Vitest, Mocha, node:test.
 * Vitest's JSON report gives a timeout's stack only, whose first line is its placeholder.
 */
const TIMED_OUT =
  /Exceeded timeout of \d+ ms for a test|Test timed out in \d+ms|Timeout of \d+ms exceeded|^test timed out after \d+ms/;
const VITEST_TIMEOUT = "STACK_TRACE_ERROR";

const errorSchema = z.object({
  name: z.string().default("Error"),
  message: z.string().default(""),
  stack: z.string().default(""),
  expected: z.string().optional(),
  actual: z.string().optional(),
  operator: z.string().optional(),
});
const rowSchema = z.object({
  file: z.string(),
  titlePath: z.array(z.string()),
  status: z.string(),
  kind: z.string().default("test"),
  durationMs: z.number().default(0),
  error: errorSchema.optional(),
});
const jestSchema = z.object({
  testResults: z
    .array(
      z.object({
        name: z.string(),
        status: z.string().optional(),
        message: z.string().optional().default(""),
        assertionResults: z
          .array(
            z.object({
              ancestorTitles: z.array(z.string()).default([]),
              title: z.string(),
              status: z.string(),
              duration: z.number().nullish(),
              failureMessages: z.array(z.string()).nullish(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/** A failure the reporter gave apart, with the structured values when it had them. */
export interface ReportedError {
  name: string;
  message: string;
  stack: string;
  expected?: string;
  actual?: string;
  operator?: string;
}

export interface ReportedTest extends TestResult {
  file: string;
  titlePath: string[];
  /** The error as reported (for evidence). */
  error?: ReportedError;
}

export interface ParsedReport {
  tests: ReportedTest[];
  /** Files that did not load, hooks that failed: the runner's words. */
  errors: string[];
  /** Test files the runner ran, repository-relative. */
  testFiles: string[];
}

const outcomeOf = (status: string): TestOutcome =>
  status === "passed" ? "passed" : status === "failed" ? "failed" : "skipped";

/** `Type: message` and the stack of a runner's failure text (Jest's and Vitest's `failureMessages`). */
function splitText(text: string): ReportedError {
  const at = text.search(/\n\s+at /);
  const head = at < 0 ? text : text.slice(0, at);
  const m = /^\s*([A-Z][\w$]*)(?: \[[A-Z_]+\])?: ([\s\S]*)$/.exec(head);
  return { name: m?.[1] ?? "Error", message: (m?.[2] ?? head).trim(), stack: text };
}

/**
 * The frames of a V8 stack, outermost first (as Python's), each marked `repo` when its file
 * is under `root` outside node_modules; paths made repository-relative.
 */
export function framesOf(stack: string, root: string): RawFrame[] {
  const frames: RawFrame[] = [];
  for (const line of stack.split("\n")) {
    const m = /^\s+at (?:(?:async )?(.*?) \()?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const abs = m[2]!.startsWith("file://") ? fileURLToPath(m[2]!) : m[2]!;
    const rel = path.posix.relative(root, abs);
    const repo = !rel.startsWith("..") && !rel.split("/").includes("node_modules");
    frames.push({ file: repo ? rel : abs, line: Number(m[3]), function: m[1] ?? "<anonymous>", repo });
  }
  return frames.reverse();
}

function failureOf(reported: ReportedError, root: string): TestFailure {
  const error =
    reported.message === VITEST_TIMEOUT
      ? { ...reported, message: "the test did not finish within its time limit" }
      : reported;
  // node:assert's first line only says what kind of comparison failed: the values follow.
  const firstLine = error.message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(" ");
  return {
    type: error !== reported || TIMED_OUT.test(error.message) ? TIMEOUT_TYPE : error.name,
    message: firstLine.slice(0, 2000),
    frames: minimizeFrames(framesOf(error.stack, root)),
    text: [
      error.message,
      error.expected !== undefined ? `expected: ${error.expected}\nactual: ${error.actual}` : "",
    ]
      .filter(Boolean)
      .join("\n")
      .slice(0, MAX_TEXT),
  };
}

/** Reads `runner`'s report `text` of a run whose files are under `root` (the sandbox's workdir). */
export function parseReport(runner: JsRunner, text: string, root: string): ParsedReport {
  const rel = (file: string) => {
    const abs = file.startsWith("file://") ? fileURLToPath(file) : path.posix.resolve(root, file);
    return path.posix.relative(root, abs);
  };
  const tests: ReportedTest[] = [];
  const errors: string[] = [];
  const files = new Set<string>();
  const add = (
    file: string,
    titlePath: string[],
    status: string,
    durationMs: number,
    error?: ReportedError,
  ) => {
    const outcome = outcomeOf(status);
    tests.push({
      id: testId(file, titlePath),
      file,
      titlePath,
      outcome,
      durationMs,
      ...(error && outcome === "failed" ? { error, failure: failureOf(error, root) } : {}),
    });
  };
  if (runner === "jest" || runner === "vitest") {
    const report = jestSchema.parse(JSON.parse(text));
    for (const suite of report.testResults) {
      const file = rel(suite.name);
      files.add(file);
      if (suite.status === "failed" && !suite.assertionResults.some((a) => a.status === "failed"))
        errors.push(
          `${file} did not run: ${suite.message.trim().slice(0, 2000) || "the file failed to load"}`,
        );
      for (const a of suite.assertionResults) {
        const message = a.failureMessages?.join("\n");
        add(
          file,
          [...a.ancestorTitles, a.title],
          a.status,
          a.duration ?? 0,
          message ? splitText(message) : undefined,
        );
      }
    }
  } else {
    const rows =
      runner === "mocha"
        ? z.array(rowSchema).parse(JSON.parse(text))
        : text
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => rowSchema.parse(JSON.parse(l)));
    for (const row of rows) {
      const file = rel(row.file);
      if (file) files.add(file);
      const loadFailure =
        runner === "node-test" && row.titlePath.length === 1 && row.titlePath[0] === row.file;
      if (row.kind === "hook" || row.kind === "suite" || loadFailure) {
        const what = loadFailure ? "did not run" : `${row.titlePath.join(" > ")} failed`;
        errors.push(
          `${file} ${what}: ${row.error ? `${row.error.name}: ${row.error.message}` : ""}`.slice(0, 2000),
        );
        continue;
      }
      add(file, row.titlePath, row.status, row.durationMs, row.error);
    }
  }
  return { tests, errors, testFiles: [...files].sort() };
}
