import { hostname } from "node:os";
import type Docker from "dockerode";
import type { Logger } from "../log.js";

export const LABEL_SANDBOX = "org.hypofix.sandbox";
export const LABEL_OWNER_PID = "org.hypofix.owner-pid";
export const LABEL_OWNER_HOST = "org.hypofix.owner-host";
export const LABEL_JOB = "org.hypofix.job-id";
/** Epoch milliseconds after which the sandbox is garbage, whoever owns it. */
export const LABEL_DEADLINE = "org.hypofix.deadline";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Why a sandbox container with these labels is garbage: its owner process on
 * this host is gone, or its deadline passed (the owner may be alive but stuck,
 * or on another host sharing the engine). Undefined while it may still be in use.
 */
export function reapReason(
  labels: Record<string, string>,
  now: number,
  host: string,
  alive: (pid: number) => boolean = pidAlive,
): "owner gone" | "past deadline" | undefined {
  const deadline = Number(labels[LABEL_DEADLINE]);
  if (Number.isFinite(deadline) && deadline > 0 && now > deadline) return "past deadline";
  const pid = Number(labels[LABEL_OWNER_PID]);
  if (labels[LABEL_OWNER_HOST] === host && Number.isInteger(pid) && pid > 0 && !alive(pid))
    return "owner gone";
  return undefined;
}

/** Removes sandbox containers that reapReason calls garbage, then such networks. Returns the container ids removed. */
export async function reapLeftovers(docker: Docker, log?: Logger): Promise<string[]> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_SANDBOX}=1`] } });
  const now = Date.now();
  const host = hostname();
  const garbage = containers.flatMap((c) => {
    const why = reapReason(c.Labels, now, host);
    return why ? [{ id: c.Id, why }] : [];
  });
  await Promise.all(
    garbage.map(async ({ id }) => {
      const container = docker.getContainer(id);
      try {
        await container.remove({ force: true });
      } catch (err) {
        // Another process may have reaped it at the same moment (gone, or its removal in progress).
        const status = (err as { statusCode?: number }).statusCode;
        if (status !== 404 && status !== 409) throw err;
        // 409: someone else's removal is still running; a reap returns once the container is gone.
        if (status === 409) await container.wait({ condition: "removed" }).catch(() => undefined);
      }
    }),
  );
  // Debug: a CLI's stderr is its command's; the worker's periodic reaper logs what it removed.
  if (garbage.length > 0)
    log?.debug({ reaped: garbage.map((g) => ({ id: g.id.slice(0, 12), why: g.why })) }, "reaped sandboxes");
  await reapNetworks(docker, now, host);
  return garbage.map((g) => g.id);
}

/** A build's network (sandbox/egress.ts) outlives its containers only when its worker died mid-build. */
async function reapNetworks(docker: Docker, now: number, host: string): Promise<void> {
  const networks = await docker.listNetworks({ filters: { label: [`${LABEL_SANDBOX}=1`] } });
  await Promise.all(
    networks
      .filter((n) => reapReason(n.Labels ?? {}, now, host))
      .map(async (n) => {
        try {
          await docker.getNetwork(n.Id).remove();
        } catch (err) {
          // 404: reaped by another process; 403/409: a container still on it (reaped on a later pass).
          const status = (err as { statusCode?: number }).statusCode;
          if (status !== 404 && status !== 403 && status !== 409) throw err;
        }
      }),
  );
}

/**
 * Reaps now and then every `intervalMs` for as long as the process lives (a warm
 * worker would otherwise only reap when it starts). Returns a function that stops it.
 */
export function startReaper(docker: Docker, options: { intervalMs?: number; log?: Logger } = {}): () => void {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= reapLeftovers(docker, options.log)
      .then((ids) => {
        if (ids.length > 0)
          options.log?.info({ reaped: ids.map((id) => id.slice(0, 12)) }, "reaped sandboxes");
      })
      .catch((err: unknown) => options.log?.warn({ err }, "could not reap sandboxes"))
      .finally(() => (running = undefined));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? 30_000);
  timer.unref();
  return () => clearInterval(timer);
}
