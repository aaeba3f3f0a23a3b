"use strict";
// Hypofix's Jest test runner for per-test coverage in one run (`--testRunner <this file>`, with
// coverage-preload.cjs preloaded in HYPOFIX_COVERAGE_PER_TEST mode): the project's own
// jest-circus runner, with the environment's test events seen first, so that the preload's
// coverage is cut at each test's start and end (circus awaits every event handler in turn, so
// the cut falls exactly between the hooks of one test and those of the next).
const { createRequire } = require("node:module");
const path = require("node:path");

const KEY = Symbol.for("hypofix.coverage");

/** A test's describe blocks' names and its own, as the reporters give them (the root block left out). */
function titlesOf(test) {
  const titles = [];
  for (let block = test; block && block.parent; block = block.parent) titles.unshift(block.name);
  return titles;
}

/** The circus runner the project's Jest would have used, resolved from the project. */
function circusOf(rootDir) {
  const fromProject = createRequire(path.join(rootDir, "package.json"));
  try {
    return fromProject("jest-circus/runner");
  } catch {
    // jest-circus not hoisted: the copy jest-runner itself depends on
    const fromRunner = createRequire(fromProject.resolve("jest-runner"));
    return fromRunner("jest-circus/runner");
  }
}

module.exports = async function hypofixCoverageRunner(
  globalConfig,
  config,
  environment,
  runtime,
  testPath,
  send,
) {
  const coverage = globalThis[KEY];
  if (coverage) {
    // What ran since the last file (this file's setupFiles) belongs to this file.
    coverage.snapshot(testPath, null);
    const own = environment.handleTestEvent;
    environment.handleTestEvent = function (event, state) {
      if (event.name === "test_start") coverage.snapshot(testPath, null);
      else if (event.name === "test_done") coverage.snapshot(testPath, titlesOf(event.test));
      return own ? own.call(this, event, state) : undefined;
    };
  }
  try {
    return await circusOf(config.rootDir)(globalConfig, config, environment, runtime, testPath, send);
  } finally {
    if (coverage) coverage.snapshot(testPath, null);
  }
};
