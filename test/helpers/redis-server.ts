import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/**
 * A throwaway redis-server on a port of its own (tests that stop, restart or flush
 * Redis never touch the shared one). With `aof`, it persists like a production
 * Redis, so a restart keeps the queue.
 */
export class RedisServer {
  private process?: ChildProcess;
  readonly dir = mkdtempSync(join(tmpdir(), "hypofix-redis-"));

  constructor(
    readonly port: number,
    private readonly options: { aof?: boolean } = {},
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", ""];
    args.push("--appendonly", this.options.aof ? "yes" : "no", "--appendfsync", "always");
    this.process = spawn("redis-server", args, { stdio: "ignore" });
    const client = new Redis(this.url, {
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    client.on("error", () => undefined);
    const until = Date.now() + 10_000;
    for (;;) {
      try {
        await client.connect();
        await client.ping();
        client.disconnect();
        return;
      } catch (err) {
        client.disconnect();
        if (Date.now() > until) throw new Error(`redis-server on ${this.port} did not start`, { cause: err });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Stops the server (SIGTERM: with AOF, what was written survives a start; SIGKILL: a crash). */
  async stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
    const proc = this.process;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill(signal);
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
