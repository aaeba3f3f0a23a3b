"use strict";
// Hypofix's V8 coverage for code Node's own NODE_V8_COVERAGE cannot map: modules a runner
// evaluates itself (Vitest's vite-node runs transformed TypeScript through vm, so Node keeps no
// source map for it). Preloaded with `--require` (NODE_OPTIONS reaches the runner's workers);
// it starts V8's precise coverage through the inspector, notes each script's source map as the
// script is parsed, and at exit writes one file into HYPOFIX_COVERAGE_DIR in NODE_V8_COVERAGE's
// shape: `result` (the repository's scripts only) and `source-map-cache` (each map with its
// script's line lengths).
const { Session } = require("node:inspector");
const { writeFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");

const dir = process.env.HYPOFIX_COVERAGE_DIR;
const root = process.env.HYPOFIX_COVERAGE_ROOT;
if (dir && root) {
  const session = new Session();
  session.connect();
  const scripts = new Map();
  const urlOf = (url) => (url.startsWith("/") ? pathToFileURL(url).href : url);
  const own = (url) => url.startsWith(pathToFileURL(root).href + "/") && !url.includes("/node_modules/");
  session.on("Debugger.scriptParsed", ({ params }) => {
    const url = urlOf(params.url || "");
    if (own(url)) scripts.set(params.scriptId, { url, sourceMapURL: params.sourceMapURL || "" });
  });
  // In-process sessions answer synchronously: every call below is done when it returns.
  session.post("Debugger.enable");
  session.post("Profiler.enable");
  session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  let written = false;
  const dump = () => {
    if (written) return;
    written = true;
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
      const inline = /^data:application\/json[^,]*;base64,(.*)$/.exec(seen.sourceMapURL);
      if (!inline) continue;
      session.post("Debugger.getScriptSource", { scriptId: script.scriptId }, (e, source) => {
        if (e) return;
        maps[seen.url] = {
          lineLengths: source.scriptSource.split("\n").map((l) => l.length),
          data: JSON.parse(Buffer.from(inline[1], "base64").toString("utf8")),
        };
      });
    }
    try {
      writeFileSync(
        `${dir}/coverage-${process.pid}-${Date.now()}.json`,
        JSON.stringify({ result: kept, "source-map-cache": maps }),
      );
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
