import type Docker from "dockerode";
import type { Logger } from "../log.js";
import { metrics } from "../metrics.js";
import { DockerSandbox } from "./docker.js";
import type { SandboxOptions } from "./types.js";

/** What a pooled container is started with: the image, limits and language support, no repository, no job. */
export type PoolKey = Pick<SandboxOptions, "image" | "limits" | "support">;

interface Slot {
  key: PoolKey;
  warm: Promise<DockerSandbox | undefined>[];
}

/**
 * Pre-started Docker sandboxes, `size` per image a run has asked for (at most
 * `maxImages` images, least recently used dropped). A pooled container is booted
 * (helpers copied, command runner up) without a repository; `take` copies the
 * run's repository in and hands it over for good: each container serves one run
 * and is removed by that run's dispose. Pooled containers carry the same owner
 * and deadline labels as any sandbox, so the reaper removes them when their
 * worker dies or they outlive their maximum age.
 */
export class SandboxPool {
  private readonly slots = new Map<string, Slot>();
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly docker: Docker,
    private readonly log?: Logger,
    private readonly maxImages = 4,
  ) {}

  /** Starts `size` sandboxes for this image ahead of the first run that needs one. */
  warm(key: PoolKey): void {
    this.refill(this.slot(key));
  }

  /** A sandbox over `options.repoDir`: a pre-started one when there is one fresh enough, else a new one. */
  async take(options: SandboxOptions, log?: Logger): Promise<DockerSandbox> {
    const slot = this.slot({ image: options.image, limits: options.limits, support: options.support });
    const next = slot.warm.shift();
    this.refill(slot);
    const pooled = next && (await next);
    if (pooled) {
      // Half its age left at least, so a long job does not meet the container's deadline first.
      if (pooled.expires - Date.now() >= options.limits.maxAgeMs / 2) {
        try {
          await pooled.load(options);
          metrics.sandboxStarts.inc({ source: "pool" });
          return pooled;
        } catch (err) {
          log?.warn({ err: String(err) }, "pooled sandbox unusable; starting a new one");
        }
      }
      await pooled.dispose().catch(() => undefined);
    }
    const sandbox = await DockerSandbox.create(options, log, this.docker);
    metrics.sandboxStarts.inc({ source: "cold" });
    return sandbox;
  }

  /** Removes every idle pooled container; the pool starts no more. */
  async drain(): Promise<void> {
    this.closed = true;
    const all = [...this.slots.values()].flatMap((s) => s.warm.splice(0));
    this.slots.clear();
    await Promise.all(all.map(async (w) => (await w)?.dispose().catch(() => undefined)));
  }

  /** True when every idle container has finished starting. */
  async ready(): Promise<boolean> {
    const all = [...this.slots.values()].flatMap((s) => s.warm);
    const settled = await Promise.all(
      all.map((w) =>
        Promise.race([w.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]),
      ),
    );
    return settled.every(Boolean);
  }

  /** Containers idle in the pool now (started or starting). */
  get idle(): number {
    return [...this.slots.values()].reduce((n, s) => n + s.warm.length, 0);
  }

  private slot(key: PoolKey): Slot {
    const id = JSON.stringify([key.image, key.limits, key.support]);
    let slot = this.slots.get(id);
    if (slot) {
      // Most recently used last.
      this.slots.delete(id);
    } else {
      slot = { key, warm: [] };
    }
    this.slots.set(id, slot);
    while (this.slots.size > this.maxImages) {
      const [oldest, dropped] = this.slots.entries().next().value as [string, Slot];
      this.slots.delete(oldest);
      for (const w of dropped.warm) void w.then((s) => s?.dispose().catch(() => undefined));
    }
    return slot;
  }

  private refill(slot: Slot): void {
    while (!this.closed && slot.warm.length < this.size) {
      slot.warm.push(
        DockerSandbox.boot({ ...slot.key, repoDir: "" }, this.log, this.docker).catch((err: unknown) => {
          this.log?.warn({ err: String(err), image: slot.key.image }, "could not pre-start a sandbox");
          return undefined;
        }),
      );
    }
  }
}
