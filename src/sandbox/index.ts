import { stat } from "node:fs/promises";
import { UserError } from "../errors.js";
import type { Logger } from "../log.js";
import { metrics } from "../metrics.js";
import { DockerSandbox, dockerClient, imageExists, pingDocker } from "./docker.js";
import { LocalSandbox } from "./local.js";
import { SandboxPool } from "./pool.js";
import type { Sandbox, SandboxBackend, SandboxOptions } from "./types.js";

export * from "./types.js";

/*
 * Behaviour both backends share (tests in test/sandbox pin it):
 * - exec never throws for the command's own failure. exitCode is null when the
 *   command was killed (timeout, memory limit, signal); 127 when the program
 *   does not exist, 126 when it cannot start.
 * - Each command runs in its own process group, killed when the command ends or
 *   times out; docker also ends processes that escaped into a session of their
 *   own once no command runs (local cannot: it shares the user's machine).
 * - stdout and stderr are capped at maxOutputBytes each and drained to the end.
 * - docker: one warm container per sandbox (no network, uid 10001, no
 *   capabilities, read-only root, no container log, tmpfs /work, /tmp, snapshots,
 *   and root-owned /hypofix/helpers the tests cannot change). Commands are spawned
 *   by the language's in-container runner (supervisor.ts has its protocol; not dumpable, every line it sends
 *   under a MAC) over one long-lived exec; a `docker exec` per command is the
 *   fallback when the runner cannot start. docs/security.md has the reasons.
 * - Both: no command runs past the sandbox's deadline (SandboxExpired).
 */

const BUILD_HINT = "build it with: bash scripts/provision.sh, or bash docker/build-sandbox-image-offline.sh";

/** True when a Docker engine answers (DOCKER_HOST or the default socket). */
export function dockerAvailable(): Promise<boolean> {
  return pingDocker(dockerClient());
}

let warnedLocal = false;

/**
/**
 * The backend `auto` means here: docker when the engine answers and `image`
 * exists, else local with a warning (once); `onFallback` hears why, so the run
 * can record it. `docker` without engine or image is a UserError. Exported so an
 * environment can be prepared before the sandbox starts.
 */
export async function resolveBackend(
  backend: SandboxBackend | "auto",
  image: string,
  onFallback?: (reason: string) => void,
): Promise<SandboxBackend> {
  if (backend === "local") return "local";
  const docker = dockerClient();
  const reachable = await pingDocker(docker);
  const hasImage = reachable && (await imageExists(docker, image));
  if (backend === "docker") {
    if (!reachable) {
      throw new UserError(
        "Docker engine not reachable",
        "start dockerd (bash scripts/provision.sh does) or use --sandbox local",
      );
    }
    if (!hasImage) throw new UserError(`sandbox image ${image} not found`, BUILD_HINT);
    return "docker";
  }
  if (hasImage) return "docker";
  const why = reachable ? `image ${image} not found (${BUILD_HINT})` : "Docker engine not reachable";
  onFallback?.(why);
  if (!warnedLocal) {
    warnedLocal = true;
    process.stderr.write(`hypofix: warning: ${why}; running in the local sandbox, without isolation\n`);
  }
  return "local";
}

let pool: SandboxPool | undefined;

/**
 * Keeps `size` pre-started Docker sandboxes per image for this process's runs
 * (the worker; a CLI run starts its own). Returns the pool, e.g. to warm it or drain it.
 */
export function usePool(size: number, log?: Logger): SandboxPool {
  pool = new SandboxPool(size, dockerClient(), log);
  return pool;
}

async function dockerSandbox(options: SandboxOptions, log?: Logger): Promise<Sandbox> {
  if (pool) return pool.take(options, log);
  const sandbox = await DockerSandbox.create(options, log, dockerClient());
  metrics.sandboxStarts.inc({ source: "cold" });
  return sandbox;
}

/** One warm sandbox over a copy of `options.repoDir`, on the backend resolveBackend picks. */
export async function createSandbox(
  backend: SandboxBackend | "auto",
  options: SandboxOptions,
  log?: Logger,
  onFallback?: (reason: string) => void,
): Promise<Sandbox> {
  const info = await stat(options.repoDir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UserError(`repository directory not found: ${options.repoDir}`, "pass the path of a checkout");
  }
  return (await resolveBackend(backend, options.image, onFallback)) === "docker"
    ? dockerSandbox(options, log)
    : LocalSandbox.create(options);
}

/**
 * Runs `work` in a fresh sandbox and disposes it afterwards, also on Ctrl-C or
 * SIGTERM, so a command line never leaves a container behind.
 */
export async function withSandbox<T>(
  backend: SandboxBackend | "auto",
  options: SandboxOptions,
  log: Logger | undefined,
  work: (sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const sandbox = await createSandbox(backend, options, log);
  const onSignal = () => void sandbox.dispose().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work(sandbox);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await sandbox.dispose();
  }
}
