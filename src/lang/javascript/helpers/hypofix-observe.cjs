"use strict";
/*
 * Hypofix's debugger experiment for Node.js (`b src/cart.ts:14 ;; c ;; p expr`), preloaded into
 * every Node process of one test run with `--require` (NODE_OPTIONS): CommonJS and ESM alike,
 * worker threads and child processes too. It opens an in-process inspector session on its own
 * thread, and when a script is compiled whose path is the target file, or whose source map lists
 * it (TypeScript through the project's own transform: tsx, ts-jest, babel-jest, Vitest), it sets
 * a breakpoint at the generated code of the target line. At each hit it evaluates the
 * expressions in the paused frame (through the protocol: the expression text is a message, as
 * Node's REPL reads it) and resumes. It records the lines of the file the test executed (V8's block
 * coverage) for a breakpoint never reached. Each process appends JSON lines to the file the
 * request names; the host (observe.ts) merges them. Plain Node, no dependency.
 */
const inspector = require("node:inspector");
const fs = require("node:fs");
const path = require("node:path");
const url = require("node:url");
const util = require("node:util");

const STATE = Symbol.for("hypofix.observe");
const INSPECT = Symbol.for("hypofix.observe.inspect");
const REPR_CAP = 1000;

const request = (() => {
  try {
    return JSON.parse(process.env.HYPOFIX_OBSERVE || "null");
  } catch {
    return null;
  }
})();

if (request && !globalThis[STATE]) {
  globalThis[STATE] = true;
  try {
    start(request);
  } catch (err) {
    // A process without an inspector (a loader's hooks thread) runs none of the test's code.
    const message = String((err && err.message) || err);
    if (!/without a V8::Inspector/.test(message))
      emit(request, { event: "problem", message: `the observer did not start: ${message}` });
  }
}

function emit(req, record) {
  const line = JSON.stringify({ pid: process.pid, thread: threadId(), ...record }) + "\n";
  try {
    fs.appendFileSync(req.out, line);
  } catch {
    // Nowhere to report: the host then says the file was never loaded.
  }
}

function threadId() {
  try {
    return require("node:worker_threads").threadId;
  } catch {
    return 0;
  }
}

const cap = (text) => (text.length <= REPR_CAP ? text : `${text.slice(0, REPR_CAP)}...`);

function start(req) {
  const root = path.resolve(req.root);
  const target = path.resolve(root, req.file);
  const line0 = req.line - 1;
  const session = new inspector.Session();
  session.connect();
  // In-process sessions answer synchronously; a callback that has not run is a protocol change.
  const post = (method, params) => {
    let done = false;
    let error;
    let result;
    session.post(method, params, (err, res) => {
      done = true;
      error = err;
      result = res;
    });
    if (!done) throw new Error(`${method} did not answer synchronously`);
    if (error) throw new Error(`${method}: ${error.message}`);
    return result;
  };
  globalThis[INSPECT] = (value) =>
    util.inspect(value, { depth: 2, breakLength: Infinity, maxArrayLength: 50 });

  /** scriptId → { source, map (decoded, or null), ours: our breakpoint ids } for scripts of the target. */
  const scripts = new Map();
  const ours = new Set();
  let hits = 0;
  let total = 0;
  /** Per frame (its function and depth), the last position of the line it paused at. */
  const lastAt = new Map();

  session.on("Debugger.scriptParsed", ({ params }) => {
    try {
      const located = locate(params, root, target);
      if (!located) return;
      const script = { id: params.scriptId, ...located };
      scripts.set(params.scriptId, script);
      const end = { scriptId: params.scriptId, lineNumber: params.endLine + 1, columnNumber: 0 };
      const possible = post("Debugger.getPossibleBreakpoints", {
        start: { scriptId: params.scriptId, lineNumber: 0, columnNumber: 0 },
        end,
      }).locations;
      /** Original 0-based line → the generated positions that run it, in order. */
      const executable = new Map();
      for (const loc of possible) {
        const orig = toOriginal(script, loc.lineNumber, loc.columnNumber);
        if (orig === undefined) continue;
        if (!executable.has(orig)) executable.set(orig, []);
        executable.get(orig).push(loc);
      }
      script.executable = executable;
      emit(req, { event: "loaded", executable: [...executable.keys()].map((l) => l + 1) });
      // A breakpoint at every position of the line but a function's return: the line may hold
      // code of several functions (`const f = (x) => ...` runs at load and in every call).
      if (req.mode === "trace") {
        // The block trace stops at every position of the function's lines, its returns included.
        for (const [orig, locations] of executable) {
          if (orig + 1 < req.start || orig + 1 > req.end) continue;
          for (const loc of locations)
            ours.add(post("Debugger.setBreakpoint", { location: loc }).breakpointId);
        }
        return;
      }
      for (const loc of executable.get(line0) || []) {
        if (loc.type !== "return") ours.add(post("Debugger.setBreakpoint", { location: loc }).breakpointId);
      }
    } catch (err) {
      emit(req, { event: "problem", message: String(err && err.message) });
    }
  });

  session.on("Debugger.paused", ({ params }) => {
    try {
      if (!(params.hitBreakpoints || []).some((id) => ours.has(id))) return;
      if (req.mode === "trace") return tracer.pause(params);
      const frame = params.callFrames[0];
      // One hit per execution of the line in a frame, as Python's line events: a later position
      // of the line in the same frame is the same execution; the same or an earlier one (a loop
      // coming round, another call) is a new one.
      const fn = frame.functionLocation || {};
      const where = `${fn.scriptId}:${fn.lineNumber}:${fn.columnNumber}@${params.callFrames.length}`;
      const at = frame.location.lineNumber * 1e7 + frame.location.columnNumber;
      const last = lastAt.get(where);
      lastAt.set(where, at);
      if (last !== undefined && at > last) return;
      total++;
      if (hits >= req.limit) return;
      hits++;
      const values = req.exprs.map((expr) => evaluate(post, frame.callFrameId, expr));
      emit(req, { event: "hit", values });
    } catch (err) {
      emit(req, { event: "problem", message: String(err && err.message) });
    } finally {
      try {
        post("Debugger.resume", {});
      } catch {
        // Already running.
      }
    }
  });

  const tracer = req.mode === "trace" ? blockTracer(req, post, scripts) : undefined;
  post("Profiler.enable", {});
  post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  post("Debugger.enable", {});

  process.on("exit", () => {
    let reached = [];
    try {
      reached = reachedLines(post, scripts);
    } catch {
      // Coverage is a hint for a breakpoint never reached; the hits stand without it.
    }
    if (tracer) emit(req, { event: "trace", ...tracer.finish() });
    emit(req, { event: "end", total, reached });
    try {
      session.disconnect();
    } catch {
      // Exiting anyway.
    }
  });
}

/** The target's script: its own path without a source map, or any script whose source map lists the target. */
function locate(params, root, target) {
  const file = scriptPath(params.url);
  if (file && file.split(path.sep).includes("node_modules")) return undefined;
  if (params.sourceMapURL) {
    const map = loadMap(params.sourceMapURL, file);
    if (map) {
      const index = map.sources.findIndex((s) => s === target);
      if (index >= 0) return { map, source: index };
      if (file !== target) return undefined;
    }
  }
  return file === target ? { map: null, source: 0 } : undefined;
}

function scriptPath(u) {
  if (!u) return undefined;
  if (u.startsWith("file://")) {
    try {
      return url.fileURLToPath(u.split("?")[0]);
    } catch {
      return undefined;
    }
  }
  const bare = u.split("?")[0];
  return path.isAbsolute(bare) ? path.normalize(bare) : undefined;
}

/** A source map (inline `data:` or a file beside the script), its sources as absolute paths and its mappings decoded. */
function loadMap(mapUrl, file) {
  let text;
  if (mapUrl.startsWith("data:")) {
    const comma = mapUrl.indexOf(",");
    const meta = mapUrl.slice(5, comma);
    const body = mapUrl.slice(comma + 1);
    text = meta.endsWith(";base64") ? Buffer.from(body, "base64").toString("utf8") : decodeURIComponent(body);
  } else if (file) {
    const mapFile = mapUrl.startsWith("file://")
      ? url.fileURLToPath(mapUrl)
      : path.resolve(path.dirname(file), mapUrl.split("?")[0]);
    try {
      text = fs.readFileSync(mapFile, "utf8");
    } catch {
      return undefined;
    }
    file = mapFile;
  } else return undefined;
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || !Array.isArray(raw.sources) || typeof raw.mappings !== "string") return undefined;
  const base = file ? path.dirname(file) : process.cwd();
  const sourceRoot = typeof raw.sourceRoot === "string" ? raw.sourceRoot : "";
  const sources = raw.sources.map((s) => {
    const joined =
      sourceRoot && !/^[a-z]+:|^\//i.test(s) ? `${sourceRoot.replace(/\/?$/, "/")}${s}` : String(s);
    if (joined.startsWith("file://")) return scriptPath(joined);
    return path.resolve(base, joined);
  });
  return { sources, lines: decodeMappings(raw.mappings) };
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/** Source map v3 mappings: per generated line, its segments [column, source, originalLine, originalColumn], by column. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  let origLine = 0;
  let origCol = 0;
  for (const text of mappings.split(";")) {
    const segments = [];
    let col = 0;
    for (const segment of text.split(",")) {
      if (!segment) continue;
      const fields = vlq(segment);
      col += fields[0];
      if (fields.length >= 4) {
        source += fields[1];
        origLine += fields[2];
        origCol += fields[3];
        segments.push([col, source, origLine, origCol]);
      } else segments.push([col, -1, -1, -1]);
    }
    segments.sort((a, b) => a[0] - b[0]);
    lines.push(segments);
  }
  return lines;
}

function vlq(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64_VALUE.get(ch);
    if (digit === undefined) break;
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** The target file's 0-based line a generated position belongs to; undefined when it maps elsewhere or nowhere. */
function toOriginal(script, line, column) {
  if (!script.map) return line;
  const segments = script.map.lines[line];
  if (!segments) return undefined;
  let found;
  for (const seg of segments) {
    if (seg[0] > column) break;
    found = seg;
  }
  if (!found || found[1] !== script.source) return undefined;
  return found[2];
}

/** Evaluates one expression in the paused frame: its value shown as `util.inspect` shows it, or the error it threw. */
function evaluate(post, callFrameId, expression) {
  let res;
  try {
    // As Node's REPL reads it: `{ a, b }` is an object, not a block, when it parses as one.
    if (/^\s*\{/.test(expression) && !/;\s*$/.test(expression)) {
      res = post("Debugger.evaluateOnCallFrame", {
        callFrameId,
        expression: `(${expression}\n)`,
        silent: true,
      });
      if (res.exceptionDetails && /^SyntaxError/.test(res.exceptionDetails.exception?.description ?? ""))
        res = undefined;
    }
    res ??= post("Debugger.evaluateOnCallFrame", { callFrameId, expression, silent: true });
  } catch (err) {
    return { error: String(err && err.message) };
  }
  if (res.exceptionDetails) return { error: errorText(post, res) };
  return { value: cap(show(post, res.result)) };
}

function errorText(post, res) {
  const ex = res.exceptionDetails.exception;
  if (ex && ex.description) return ex.description.split("\n")[0];
  if (ex) return `Uncaught ${show(post, ex)}`;
  return res.exceptionDetails.text || "the expression threw";
}

/** How a value looks: util.inspect of this thread's realm where it can reach it, else its JSON, else V8's description. */
function show(post, remote) {
  if (remote.objectId === undefined) {
    if ("unserializableValue" in remote) return remote.unserializableValue;
    if (remote.type === "undefined") return "undefined";
    return util.inspect(remote.value);
  }
  try {
    const viaInspect = post("Runtime.callFunctionOn", {
      objectId: remote.objectId,
      functionDeclaration: `function () { const f = globalThis[Symbol.for("hypofix.observe.inspect")]; return typeof f === "function" ? f(this) : undefined; }`,
      returnByValue: true,
      silent: true,
    });
    if (!viaInspect.exceptionDetails && typeof viaInspect.result.value === "string")
      return viaInspect.result.value;
    // Another realm (Jest's vm context): the value as JSON, shown here.
    const json = post("Runtime.callFunctionOn", {
      objectId: remote.objectId,
      functionDeclaration: "function () { return this; }",
      returnByValue: true,
      silent: true,
    });
    if (
      !json.exceptionDetails &&
      json.result.value !== undefined &&
      remote.subtype !== "map" &&
      remote.subtype !== "set"
    )
      return globalThis[INSPECT](json.result.value);
  } catch {
    // Fall through to the description.
  }
  return remote.description || remote.className || remote.type;
}

/** Lines of the target file the run executed: possible breakpoint positions inside a block V8 counted. */
function reachedLines(post, scripts) {
  const reached = new Set();
  const coverage = post("Profiler.takePreciseCoverage", {}).result;
  for (const entry of coverage) {
    const script = scripts.get(entry.scriptId);
    if (!script || !script.executable) continue;
    const source = post("Debugger.getScriptSource", { scriptId: entry.scriptId }).scriptSource;
    const starts = [0];
    for (let i = 0; i < source.length; i++) if (source[i] === "\n") starts.push(i + 1);
    const ranges = entry.functions.flatMap((f) => f.ranges);
    for (const [orig, locations] of script.executable) {
      const ran = locations.some((loc) => {
        const offset = (starts[loc.lineNumber] || 0) + loc.columnNumber;
        // The innermost (shortest) range holding the position says how often it ran.
        let best;
        for (const r of ranges) {
          const inside = r.startOffset <= offset && offset < r.endOffset;
          if (inside && (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)) best = r;
        }
        return best !== undefined && best.count > 0;
      });
      if (ran) reached.add(orig + 1);
    }
  }
  return [...reached].sort((a, b) => a - b);
}

const KEEP = 5;
const VAR_CAP = 100;
const MAX_VARS = 30;

/**
 * LDB's block trace through one function (lines `req.start`-`req.end`, nested functions starting
 * at `req.nested` left out): per call, runs of lines that follow each other in the function's
 * code are one block; a jump (a loop coming round, a branch skipping lines) starts the next. Each
 * block has the variables at its entry and at its exit (the next block's entry, or the return,
 * with `__return__`). The first and last KEEP blocks are kept.
 */
function blockTracer(req, post, scripts) {
  const head = [];
  const tail = [];
  let total = 0;
  /** Per frame (function and depth): the open block and the last variables seen. */
  const frames = new Map();
  const close = (block, after) => {
    if (!block || block.lines.length === 0) return;
    total++;
    const done = {
      index: total,
      startLine: Math.min(...block.lines),
      endLine: Math.max(...block.lines),
      before: block.before,
      after,
      lines: [...new Set(block.lines)].sort((a, b) => a - b),
    };
    if (head.length < KEEP) head.push(done);
    else {
      tail.push(done);
      if (tail.length > KEEP) tail.shift();
    }
  };
  const snapshot = (frame) => {
    const vars = {};
    const scopes = [];
    for (const scope of frame.scopeChain) {
      if (!["local", "block", "catch"].includes(scope.type)) break;
      scopes.unshift(scope);
    }
    for (const scope of scopes) {
      const props = post("Runtime.getProperties", {
        objectId: scope.object.objectId,
        ownProperties: true,
      }).result;
      for (const prop of props) {
        if (!prop.value || Object.keys(vars).length >= MAX_VARS) continue;
        const text = show(post, prop.value);
        vars[prop.name] = text.length <= VAR_CAP ? text : `${text.slice(0, VAR_CAP)}...`;
      }
    }
    return vars;
  };
  return {
    pause(params) {
      const frame = params.callFrames[0];
      const script = scripts.get(frame.location.scriptId);
      if (!script) return;
      const fn = frame.functionLocation;
      const fnLine = fn && toOriginal(script, fn.lineNumber, fn.columnNumber);
      if (
        fnLine === undefined ||
        fnLine + 1 < req.start ||
        fnLine + 1 > req.end ||
        req.nested.includes(fnLine + 1)
      )
        return;
      const line0 = toOriginal(script, frame.location.lineNumber, frame.location.columnNumber);
      if (line0 === undefined) return;
      const line = line0 + 1;
      const key = `${fn.scriptId}:${fn.lineNumber}:${fn.columnNumber}@${params.callFrames.length}`;
      const state = frames.get(key) || {
        block: undefined,
        order: [...script.executable.keys()].map((l) => l + 1).sort((a, b) => a - b),
      };
      frames.set(key, state);
      const vars = snapshot(frame);
      if (frame.returnValue) {
        close(state.block, { ...vars, __return__: show(post, frame.returnValue) });
        frames.delete(key);
        return;
      }
      const block = state.block;
      const prev = block && block.lines[block.lines.length - 1];
      if (prev === line) return;
      if (block && state.order[state.order.indexOf(prev) + 1] !== line) {
        close(block, vars);
        state.block = undefined;
      }
      if (!state.block) state.block = { before: vars, lines: [] };
      state.block.lines.push(line);
      state.last = vars;
    },
    finish() {
      // A call that threw out of the function never returned: its block ends with what was last seen.
      for (const state of frames.values()) close(state.block, state.last || {});
      frames.clear();
      return { total, blocks: head.concat(tail) };
    },
  };
}
