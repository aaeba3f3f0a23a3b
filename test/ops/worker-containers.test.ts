import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { LABEL_OWNER_PID, LABEL_SANDBOX } from "../../src/sandbox/reaper.js";
import { appPrivateKey } from "../helpers/git.js";
import { hypofix, until } from "../helpers/hypofix-process.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const docker = dockerClient();
const privateKey = appPrivateKey();

/** Sandbox container ids whose owner label names this process id. */
async function ownedBy(pid: number | undefined): Promise<string[]> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_SANDBOX}=1`, `${LABEL_OWNER_PID}=${pid}`] },
  });
  return list.map((c) => c.Id);
}

/**
 * What a `hypofix worker` process leaves behind in Docker: its idle pooled
 * sandbox goes with it on SIGTERM; a SIGKILL leaves it, and another live worker's
 * periodic reaper removes it while never touching its own.
 */
describe("worker processes and their sandbox containers (real Docker and Redis)", () => {
  const queueName = `hypofix-containers-${randomUUID()}`;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    for (const child of children) {
      // A failed test may leave some; a reaper may be removing them already (409).
      for (const id of await ownedBy(child.pid))
        await docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined);
    }
  });

  /** A worker with a warm pool of one; resolves once its pooled container exists. */
  const startWorker = async (reaperIntervalMs: number) => {
    const { child, output } = hypofix(["worker"], {
      ...process.env,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      REDIS_URL,
      HYPOFIX_QUEUE_NAME: queueName,
      HYPOFIX_SANDBOX_POOL_SIZE: "1",
      HYPOFIX_REDELIVERY_INTERVAL_MS: "0",
      HYPOFIX_REAPER_INTERVAL_MS: String(reaperIntervalMs),
      LOG_LEVEL: "info",
    });
    children.push(child);
    await until("the worker's pooled sandbox", async () => {
      if (child.exitCode !== null) throw new Error(`worker exited ${child.exitCode}:\n${output()}`);
      return (await ownedBy(child.pid)).length === 1;
    });
    return child;
  };
  const exit = async (child: ChildProcess, signal: NodeJS.Signals) => {
    const exited = once(child, "exit");
    child.kill(signal);
    const [code] = (await exited) as [number | null];
    return code;
  };

  it("SIGTERM: the worker exits 0 with its pooled sandbox removed", async () => {
    const worker = await startWorker(60_000);
    expect(await exit(worker, "SIGTERM")).toBe(0);
    expect(await ownedBy(worker.pid)).toEqual([]);
  }, 120_000);

  it("SIGKILL leaves the pooled sandbox; a live worker's reaper removes it and keeps its own", async () => {
    const killed = await startWorker(60_000);
    const [left] = await ownedBy(killed.pid);
    expect(await exit(killed, "SIGKILL")).toBeNull();
    // No worker is alive to reap it: the kill leaves it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await ownedBy(killed.pid)).toEqual([left]);

    const reaper = await startWorker(1000);
    // Its first reap, at start, removed the dead worker's container.
    expect(await ownedBy(killed.pid)).toEqual([]);
    const [own] = await ownedBy(reaper.pid);

    // A worker that dies while the reaper's worker lives: the periodic pass removes it.
    const later = await startWorker(60_000);
    expect(await exit(later, "SIGKILL")).toBeNull();
    await until("the periodic reaper", async () => (await ownedBy(later.pid)).length === 0, 30_000);
    expect(await ownedBy(reaper.pid)).toEqual([own]);

    expect(await exit(reaper, "SIGTERM")).toBe(0);
    expect(await ownedBy(reaper.pid)).toEqual([]);
  }, 180_000);
});
