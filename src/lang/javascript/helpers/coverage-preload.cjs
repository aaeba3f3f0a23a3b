"use strict";
// Hypofix's V8 coverage through the inspector, preloaded with `--require` (NODE_OPTIONS reaches
// the runner's workers). It starts V8's precise coverage, notes each script's source map as the
// script is parsed, and writes into HYPOFIX_COVERAGE_DIR in NODE_V8_COVERAGE's shape: `result`
// (the repository's scripts only) and `source-map-cache` (each map with its script's line
// lengths). Two uses:
// - whole process (default): one file at exit, for code Node's own NODE_V8_COVERAGE cannot map
//   (Vitest's vite-node runs transformed TypeScript through vm, so Node keeps no map for it);
// - per test (HYPOFIX_COVERAGE_PER_TEST=1): the runner's hook (jest-coverage-runner.cjs, the
//   Mocha reporter) calls `globalThis[Symbol.for("hypofix.coverage")].snapshot(file, titles)`
//   at a test's start (titles null: what ran since belongs to the whole file, its loading and
//   hooks) and at its end (what ran since belongs to that test). Taking V8's coverage resets
//   its counts, so each snapshot holds only what ran since the last one; each is one JSON line
//   of `coverage-<pid>.jsonl`, written as it is taken, so a worker killed later keeps them.
const { Session } = require("node:inspector");
const { appendFileSync, writeFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");

const dir = process.env.HYPOFIX_COVERAGE_DIR;
const root = process.env.HYPOFIX_COVERAGE_ROOT;
const perTest = process.env.HYPOFIX_COVERAGE_PER_TEST === "1";
const KEY = Symbol.for("hypofix.coverage");
if (dir && root && !globalThis[KEY]) {
  const session = new Session();
  session.connect();
  const scripts = new Map();
  const urlOf = (url) => (url.startsWith("/") ? pathToFileURL(url).href : url);
  const own = (url) => url.startsWith(pathToFileURL(root).href + "/") && !url.includes("/node_modules/");
  session.on("Debugger.scriptParsed", ({ params }) => {
    const url = urlOf(params.url || "");
    if (own(url))
      scripts.set(params.scriptId, { url, sourceMapURL: params.sourceMapURL || "", mapped: false });
  });
  // In-process sessions answer synchronously: every call below is done when it returns.
  session.post("Debugger.enable");
  session.post("Profiler.enable");
  session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });

  /** The repository's scripts' counts since the last take, and the maps of those not yet given. */
  const take = () => {
    let result = [];
    session.post("Profiler.takePreciseCoverage", (err, res) => {
      if (!err) result = res.result;
    });
    const kept = [];
    const maps = {};
    for (const script of result) {
      const seen = scripts.get(script.scriptId);
      if (!seen) continue;
      kept.push({ ...script, url: seen.url });
      if (seen.mapped) continue;
      seen.mapped = true;
      const inline = /^data:application\/json[^,]*;base64,(.*)$/.exec(seen.sourceMapURL);
      session.post("Debugger.getScriptSource", { scriptId: script.scriptId }, (e, source) => {
        if (e) return;
        const text = source.scriptSource;
        // Jest's module wrapper sits before the file's first line: offsets there shift by it.
        const wrapper = /^\(\{"Object\.<anonymous>":function\([\w$,]*\)\{/.exec(text);
        const entry = { lineLengths: text.split("\n").map((l) => l.length) };
        if (wrapper) entry.prefix = wrapper[0].length;
        if (inline) entry.data = JSON.parse(Buffer.from(inline[1], "base64").toString("utf8"));
        if (inline || wrapper) maps[seen.url] = entry;
      });
    }
    return { result: kept, "source-map-cache": maps };
  };

  if (perTest) {
    const out = `${dir}/coverage-${process.pid}.jsonl`;
    const snapshot = (file, titles) => {
      try {
        appendFileSync(out, JSON.stringify({ file: String(file), test: titles ?? null, ...take() }) + "\n");
      } catch {
        // no folder, no coverage: the run's own result is unaffected
      }
    };
    globalThis[KEY] = { snapshot };
  } else {
    let written = false;
    const dump = () => {
      if (written) return;
      written = true;
      try {
        writeFileSync(`${dir}/coverage-${process.pid}-${Date.now()}.json`, JSON.stringify(take()));
      } catch {
        // no folder, no coverage: the run's own result is unaffected
      }
    };
    process.on("exit", dump);
    // A runner ends its workers with SIGTERM (Vitest's forks): the coverage is written, then the
    // signal does what it would have done without us.
    process.once("SIGTERM", () => {
      dump();
      process.kill(process.pid, "SIGTERM");
    });
  }
}
