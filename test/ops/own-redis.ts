import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertRedisReachable } from "../../src/queue/redis.js";

/** A throwaway redis-server on a port of our own (never the shared one), that a test may stop and restart. */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

export async function startRedis(port: number, options: { appendonly?: boolean } = {}): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), `hypofix-redis-${port}-`));
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const own: OwnRedis = {
    url,
    async start() {
      child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          options.appendonly ? "yes" : "no",
        ],
        { stdio: "ignore" },
      );
      const until = Date.now() + 10_000;
      for (;;) {
        try {
          return await assertRedisReachable(url, 500);
        } catch (err) {
          if (Date.now() > until) throw new Error(`redis-server on ${port} did not start: ${String(err)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
    async close() {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
