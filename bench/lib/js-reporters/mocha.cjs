"use strict";
// A Mocha reporter (`--reporter <this file> --reporter-option output=<file>`) that writes every
// test's file, title path and outcome as JSON; failed hooks are marked `kind: "hook"`. Mocha's
// own JSON reporter only gives `fullTitle`, the titles joined by spaces, which cannot be split.
const { writeFileSync } = require("node:fs");

function TitlePathReporter(runner, options) {
  const reporterOptions = (options && (options.reporterOption || options.reporterOptions)) || {};
  const output = reporterOptions.output;
  if (!output) throw new Error("the title-path reporter needs --reporter-option output=<file>");
  const rows = [];
  const record = (test, status, error) => {
    const row = {
      file: test.file || (test.parent && test.parent.file) || "",
      titlePath: test.titlePath(),
      status,
      kind: test.type === "hook" ? "hook" : "test",
    };
    if (error) row.message = String(error.message || error).slice(0, 2000);
    rows.push(row);
  };
  runner.on("pass", (test) => record(test, "passed"));
  runner.on("fail", (test, error) => record(test, "failed", error));
  runner.on("pending", (test) => record(test, "skipped"));
  runner.once("end", () => writeFileSync(output, JSON.stringify(rows)));
}

module.exports = TitlePathReporter;
