import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metrics } from "../../src/metrics.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { SandboxPool } from "../../src/sandbox/pool.js";
import { LABEL_DEADLINE, LABEL_OWNER_PID, LABEL_SANDBOX, reapReason } from "../../src/sandbox/reaper.js";
import { until } from "../helpers/hypofix-process.js";
import { testOptions } from "../sandbox/limits.js";

const docker = dockerClient();

/** This process's sandbox containers (id → labels). */
async function ours(): Promise<Map<string, Record<string, string>>> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_SANDBOX}=1`, `${LABEL_OWNER_PID}=${process.pid}`] },
  });
  return new Map(list.map((c) => [c.Id, c.Labels]));
}

const starts = async (source: "pool" | "cold") =>
  (await metrics.sandboxStarts.get()).values.find((v) => v.labels.source === source)?.value ?? 0;

/** The pre-started sandbox pool against the real Docker engine and sandbox image. */
describe("sandbox pool (real Docker)", () => {
  const repoA = mkdtempSync(join(tmpdir(), "hypofix-pool-a-"));
  const repoB = mkdtempSync(join(tmpdir(), "hypofix-pool-b-"));
  const pool = new SandboxPool(1, docker);

  beforeAll(() => {
    writeFileSync(join(repoA, "which.txt"), "repository A\n");
    writeFileSync(join(repoB, "which.txt"), "repository B\n");
  });
  afterAll(async () => {
    await pool.drain();
    rmSync(repoA, { recursive: true, force: true });
    rmSync(repoB, { recursive: true, force: true });
  });

  it("hands each pre-started container to one run only, with that run's repository, and refills", async () => {
    const options = testOptions(repoA);
    pool.warm(options);
    await until("the pooled sandbox", async () => (await ours()).size === 1);
    const [pooledId, labels] = [...(await ours())][0]!;
    // The reaper's labels: an owner and a deadline no later than the maximum age.
    expect(Number(labels[LABEL_DEADLINE])).toBeLessThanOrEqual(Date.now() + options.limits.maxAgeMs);
    expect(reapReason(labels, Number(labels[LABEL_DEADLINE]) + 1, "any-host")).toBe("past deadline");

    const poolStartsBefore = await starts("pool");
    const first = await pool.take(options);
    expect(first.id).toBe(pooledId);
    expect(await first.readFile("which.txt")).toBe("repository A\n");
    expect(await starts("pool")).toBe(poolStartsBefore + 1);

    // A replacement is started; the next run gets it, never the first container again.
    await until("the replacement sandbox", async () => (await ours()).size === 2);
    const second = await pool.take(testOptions(repoB));
    expect(second.id).not.toBe(first.id);
    expect(await second.readFile("which.txt")).toBe("repository B\n");
    await expect(first.load(testOptions(repoB))).rejects.toThrow(/already holds a repository/);

    await first.dispose();
    await second.dispose();
    const left = await ours();
    expect(left.has(first.id)).toBe(false);
    expect(left.has(second.id)).toBe(false);
  }, 120_000);

  it("starts a new sandbox instead of one with too little of its life left, and removes the old one", async () => {
    const short = new SandboxPool(1, docker);
    const options = testOptions(repoA, { maxAgeMs: 4000 });
    short.warm(options);
    await until("the short-lived pooled sandbox", async () => (await ours()).size >= 1 + pool.idle);
    const before = new Set((await ours()).keys());
    await new Promise((r) => setTimeout(r, 2500));
    const coldBefore = await starts("cold");
    const sandbox = await short.take(options);
    expect(before.has(sandbox.id)).toBe(false);
    expect(await starts("cold")).toBe(coldBefore + 1);
    await sandbox.dispose();
    await short.drain();
    // Drained: none of this pool's containers is left (the first pool keeps its one).
    await until("the drained pool's removal", async () => (await ours()).size === pool.idle);
  }, 120_000);

  it("drain removes idle containers", async () => {
    await until("the pooled sandbox", async () => (await ours()).size === 1);
    await pool.drain();
    expect((await ours()).size).toBe(0);
    expect(pool.idle).toBe(0);
  }, 60_000);
});
