import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { channelKey, openMessage } from "../../src/sandbox/channel.js";
import { PYTHON_SUPERVISOR } from "../../src/lang/python/index.js";

/**
 * Lines sealed by supervisor.py's own _send, loaded as a module on the host.
 * Never run its main() here: its idle sweep kills every process it may signal.
 */
function sealed(key: Buffer, message: unknown): string {
  const script = [
    "import importlib.util, json, sys",
    "spec = importlib.util.spec_from_file_location('supervisor', sys.argv[1])",
    "m = importlib.util.module_from_spec(spec)",
    "spec.loader.exec_module(m)",
    "m._key = bytes.fromhex(sys.argv[2])",
    "m._send(json.loads(sys.argv[3]))",
  ].join("\n");
  const python = process.env.HYPOFIX_PYTHON ?? "python3";
  const args = ["-I", "-c", script, PYTHON_SUPERVISOR, key.toString("hex"), JSON.stringify(message)];
  return execFileSync(python, args, { encoding: "utf8" }).replace(/\n$/, "");
}

it("opens the runner's lines with the key it was given", () => {
  const key = channelKey();
  expect(openMessage(key, sealed(key, { ready: true }))).toEqual({ ready: true });
  const reply = { id: 3, exit: 0, timedOut: false, stdoutBytes: 2, stderrBytes: 0, spawnError: null };
  expect(openMessage(key, sealed(key, reply))).toEqual(reply);
});

it("refuses a line under another key, a changed body, a guessed MAC or none", () => {
  const key = channelKey();
  const line = sealed(key, {
    id: 1,
    exit: 1,
    timedOut: false,
    stdoutBytes: 0,
    stderrBytes: 0,
    spawnError: null,
  });
  const body = line.slice(65);
  expect(openMessage(channelKey(), line)).toBeUndefined();
  expect(openMessage(key, line.replace('"exit": 1', '"exit": 0'))).toBeUndefined();
  expect(openMessage(key, `${"0".repeat(64)} ${body}`)).toBeUndefined();
  expect(openMessage(key, body)).toBeUndefined();
  expect(openMessage(key, "")).toBeUndefined();
});

it("the runner will not start on the host as root, where its idle kill(-1) would end the machine", () => {
  // Safe to try: with no key on stdin it exits before running anything, guard or not.
  const python = process.env.HYPOFIX_PYTHON ?? "python3";
  const run = spawnSync(python, ["-I", "-c", readFileSync(PYTHON_SUPERVISOR, "utf8")], {
    input: "",
    encoding: "utf8",
  });
  expect(run.status).not.toBe(0);
  expect(run.stdout).toBe("");
  if (process.getuid?.() === 0) expect(run.stderr).toContain("runs only as the sandbox user");
  else expect(run.stderr).toMatch(/no key on stdin|runs only as the sandbox user/);
});
