// Hypofix's node:test reporter (`--test-reporter=<this file>`): one JSON object per test,
// with its file, title path (suites, then its own name), outcome, duration and error (the
// assertion's expected/actual when node:assert gives them). Read instead of the TAP or spec
// text, whose shape changes between Node versions.
import { inspect } from "node:util";

const MAX = 20000;
const show = (v) =>
  (typeof v === "string" ? JSON.stringify(v) : inspect(v, { depth: 6, breakLength: Infinity })).slice(0, MAX);

function errorOf(error) {
  // node:test wraps what the test threw in ERR_TEST_FAILURE; the thrown error is its cause.
  const err = error && error.code === "ERR_TEST_FAILURE" && error.cause !== undefined ? error.cause : error;
  if (err === undefined || err === null) return undefined;
  const out = {
    name: String(err.name ?? "Error"),
    message: String(err.message ?? err).slice(0, MAX),
    stack: String(err.stack ?? "").slice(0, MAX),
  };
  if (typeof err === "object" && "expected" in err && "actual" in err) {
    out.expected = show(err.expected);
    out.actual = show(err.actual);
    if (err.operator) out.operator = String(err.operator);
  }
  return out;
}

export default async function* hypofixReporter(source) {
  const stacks = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    const file = data.file ?? "";
    if (event.type === "test:start") {
      const stack = stacks.get(file) ?? [];
      stack.length = data.nesting;
      stack.push(data.name);
      stacks.set(file, stack);
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    // A suite fails when a test in it fails: only a suite's own failure (a hook) is news.
    const own = data.details?.error?.failureType !== "subtestsFailed";
    if (data.details?.type === "suite" && (event.type === "test:pass" || !own)) continue;
    const stack = stacks.get(file) ?? [];
    const titlePath = [...stack.slice(0, data.nesting), data.name];
    const status =
      data.skip !== undefined || data.todo !== undefined
        ? "skipped"
        : event.type === "test:pass"
          ? "passed"
          : "failed";
    const error = event.type === "test:fail" ? errorOf(data.details?.error) : undefined;
    const kind = data.details?.type === "suite" ? "suite" : "test";
    yield `${JSON.stringify({ file, titlePath, status, kind, durationMs: data.details?.duration_ms ?? 0, ...(error ? { error } : {}) })}\n`;
  }
}
