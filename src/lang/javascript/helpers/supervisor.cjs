"use strict";
/*
 * Hypofix's command runner inside a Node sandbox (no Python there), started once per container
 * by one `docker exec`: the protocol src/sandbox/supervisor.ts defines (a key first on stdin,
 * then one JSON request per line; every line out `<hmac-sha256 hex> <json>`, output in base64
 * data messages of at most CHUNK bytes before each command's reply). Python's is
 * src/lang/python/supervisor.py.
 *
 * The tests run as this process's uid, so its key must be out of their reach. Node cannot make
 * itself non-dumpable (prctl): the Node images ship /usr/local/lib/hypofix/node, a copy of node
 * the sandbox user may run but not read, and the kernel makes a process of such a binary
 * non-dumpable (its /proc/self is then root's). The runner starts only when it is, or where
 * Yama's ptrace_scope is 1 or more (no process may read an ancestor's memory); elsewhere it
 * refuses, and the host runs each command
 * by docker exec. Never run outside a container: once idle it kills every process it may
 * signal (kill(-1)).
 */
const { spawn } = require("node:child_process");
const { createHmac } = require("node:crypto");
const { existsSync, readFileSync, statSync } = require("node:fs");

const CHUNK = 48 * 1024;
const DRAIN_GRACE_MS = 2000;
let key = Buffer.alloc(0);
let active = 0;
let closing = false;

function send(obj) {
  const body = JSON.stringify(obj);
  const mac = createHmac("sha256", key).update(body).digest("hex");
  process.stdout.write(`${mac} ${body}\n`);
}

/** Why this process's memory is not out of its children's reach, or undefined when it is. */
function exposed() {
  if (statSync("/proc/self/mem").uid === 0) return undefined;
  let scope = "";
  try {
    scope = readFileSync("/proc/sys/kernel/yama/ptrace_scope", "utf8").trim();
  } catch {
    // no Yama
  }
  if (Number(scope) >= 1) return undefined;
  return "its memory would be readable by the tests (dumpable, and no Yama ptrace_scope >= 1)";
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

class Capped {
  constructor(cap) {
    this.cap = cap;
    this.kept = [];
    this.keptBytes = 0;
    this.total = 0;
  }
  add(chunk) {
    this.total += chunk.length;
    if (this.keptBytes < this.cap) {
      const part = chunk.subarray(0, this.cap - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
  }
  bytes() {
    return Buffer.concat(this.kept);
  }
}

function run(req) {
  const reply = { id: req.id, exit: null, timedOut: false, stdoutBytes: 0, stderrBytes: 0, spawnError: null };
  const stdin = req.stdin === null || req.stdin === undefined ? undefined : Buffer.from(req.stdin, "base64");
  const out = new Capped(req.cap);
  const err = new Capped(req.cap);
  let child;
  try {
    child = spawn(req.argv[0], req.argv.slice(1), {
      cwd: req.cwd,
      env: { ...process.env, ...(req.env || {}) },
      // Own session and process group: a timeout kills the whole tree.
      detached: true,
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
  } catch (e) {
    reply.exit = 126;
    reply.spawnError = `hypofix: cannot run ${String(req.argv[0]).slice(0, 200)}: ${e.message}`;
    send(reply);
    return;
  }
  active++;
  let finished = false;
  const finish = (code, signal, spawnError) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (child.pid) killGroup(child.pid);
    active--;
    // Idle: whatever still runs escaped its group. kill(-1) spares PID 1 and this process.
    if (active === 0) {
      try {
        process.kill(-1, "SIGKILL");
      } catch {
        // nothing left to signal
      }
    }
    let drained = 0;
    const done = () => {
      if (++drained < 2 && !spawnError) return;
      clearTimeout(grace);
      if (spawnError) {
        reply.exit = spawnError.code === "ENOENT" ? 127 : 126;
        reply.spawnError = `hypofix: cannot run ${String(req.argv[0]).slice(0, 200)}: ${spawnError.message}`;
      } else if (!reply.timedOut && code !== null && signal === null) reply.exit = code;
      for (const [name, sink] of [
        ["stdout", out],
        ["stderr", err],
      ]) {
        reply[`${name}Bytes`] = sink.total;
        const kept = sink.bytes();
        for (let at = 0; at < kept.length; at += CHUNK)
          send({ id: req.id, stream: name, data: kept.subarray(at, at + CHUNK).toString("base64") });
      }
      send(reply);
      if (closing && active === 0) process.exit(0);
    };
    // Pipes held open by escaped processes are waited for a moment, no longer.
    const grace = setTimeout(() => {
      drained = 1;
      done();
    }, DRAIN_GRACE_MS);
    if (spawnError) return done();
    if (child.stdout.readableEnded) done();
    else child.stdout.once("close", done);
    if (child.stderr.readableEnded) done();
    else child.stderr.once("close", done);
  };
  const timer = setTimeout(() => {
    reply.timedOut = true;
    if (child.pid) killGroup(child.pid);
  }, req.timeout * 1000);
  child.stdout.on("data", (c) => out.add(c));
  child.stderr.on("data", (c) => err.add(c));
  child.on("error", (e) => finish(null, null, e));
  child.on("exit", (code, signal) => finish(code, signal));
  if (stdin !== undefined) {
    child.stdin.on("error", () => {}); // the command exited without reading its stdin
    child.stdin.end(stdin);
  }
}

function main() {
  const uid = process.getuid();
  if (uid === 0 || !existsSync("/.dockerenv"))
    throw new Error("hypofix runner: runs only as the sandbox user inside a sandbox container");
  const why = exposed();
  if (why) throw new Error(`hypofix runner: refusing to start: ${why}`);
  let buffered = "";
  let keyed = false;
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!keyed) {
        key = Buffer.from(line, "hex");
        if (key.length < 32) throw new Error("hypofix runner: no key on stdin");
        keyed = true;
        send({ ready: true, pid: process.pid });
        continue;
      }
      if (line) run(JSON.parse(line));
    }
  });
  process.stdin.on("end", () => {
    closing = true;
    if (active === 0) process.exit(0);
  });
}

main();
