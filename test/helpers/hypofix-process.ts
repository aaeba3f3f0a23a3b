import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));

export interface Running {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
}

/** `hypofix <args>` as a child process; its output is kept for error messages. */
export function hypofix(args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Running {
  let output = "";
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

/** Polls `url` until it answers (any status); throws with the process output when it exits or times out. */
export async function waitForHttp(url: string, served: Running, timeoutMs = 90_000): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url, { redirect: "manual" });
    } catch {
      if (served.child.exitCode !== null || Date.now() > until)
        throw new Error(`no answer from ${url}\n--- output ---\n${served.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Polls `check` until it holds; throws naming `what` once `timeoutMs` has passed. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `hypofix serve <args>` on a free port of 127.0.0.1 (no smee), with `env`; returned once
 * it answers `/healthz`, with its base URL.
 */
export async function serveOnLoopback(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ served: Running; port: number; url: string }> {
  const port = await freePort();
  const served = hypofix(["serve", "--port", String(port), ...args], {
    ...env,
    HOST: "127.0.0.1",
    NO_SMEE_SETUP: "true",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, served);
  return { served, port, url };
}
