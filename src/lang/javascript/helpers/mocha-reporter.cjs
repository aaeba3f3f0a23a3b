"use strict";
// Hypofix's Mocha reporter (`--reporter <this file> --reporter-option output=<file>`): every
// test's file, title path, outcome, duration and error (name, message, stack, and chai's or
// node:assert's expected/actual) as JSON. Mocha's own JSON reporter gives only `fullTitle`,
// the titles joined by spaces, which cannot be split back. Failed hooks are `kind: "hook"`.
// With coverage-preload.cjs in its per-test mode it also cuts the coverage at every test's
// start and end (Mocha emits its events synchronously, between one test's hooks and the next's);
// what ran before the first test (every spec file's loading) belongs to every test ("*").
const { writeFileSync } = require("node:fs");
const { inspect } = require("node:util");

const MAX = 20000;
const show = (v) =>
  (typeof v === "string" ? JSON.stringify(v) : inspect(v, { depth: 6, breakLength: Infinity })).slice(0, MAX);

function errorOf(err) {
  if (!err) return undefined;
  const out = {
    name: String((err && err.name) || "Error"),
    message: String((err && err.message) || err).slice(0, MAX),
    stack: String((err && err.stack) || "").slice(0, MAX),
  };
  if (err && "expected" in err && "actual" in err && err.showDiff !== false) {
    out.expected = show(err.expected);
    out.actual = show(err.actual);
    if (err.operator) out.operator = String(err.operator);
  }
  return out;
}

const fileOf = (test) => test.file || (test.parent && test.parent.file) || "";

function HypofixReporter(runner, options) {
  const reporterOptions = (options && (options.reporterOption || options.reporterOptions)) || {};
  const output = reporterOptions.output;
  if (!output) throw new Error("the Hypofix reporter needs --reporter-option output=<file>");
  const rows = [];
  const record = (test, status, err) => {
    rows.push({
      file: fileOf(test),
      titlePath: test.titlePath(),
      status,
      kind: test.type === "hook" ? "hook" : "test",
      durationMs: test.duration || 0,
      ...(err ? { error: errorOf(err) } : {}),
    });
  };
  const coverage = globalThis[Symbol.for("hypofix.coverage")];
  // In parallel mode the tests run in workers, out of this process's coverage: each runs alone then.
  if (coverage && !(runner.isParallelMode && runner.isParallelMode())) {
    runner.once("start", () => coverage.snapshot("*", null));
    runner.on("test", (test) => coverage.snapshot(fileOf(test), null));
    runner.on("test end", (test) => coverage.snapshot(fileOf(test), test.titlePath()));
  }
  runner.on("pass", (test) => record(test, "passed"));
  runner.on("fail", (test, err) => record(test, "failed", err));
  runner.on("pending", (test) => record(test, "skipped"));
  runner.once("end", () => writeFileSync(output, JSON.stringify(rows)));
}

module.exports = HypofixReporter;
