import { stat } from "node:fs/promises";
import { UserError } from "../errors.js";
import type { Logger } from "../log.js";
import { DockerSandbox, dockerClient, imageExists, pingDocker } from "./docker.js";
import { LocalSandbox } from "./local.js";
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
 *   capabilities, read-only root, tmpfs /work, /tmp and /hypofix for helpers
 *   and snapshots). Commands are spawned by an in-container runner
 *   (supervisor.py) over one long-lived exec; a `docker exec` per command is the
 *   fallback when the runner cannot start.
 */

const BUILD_HINT = "build it with: bash docker/build-sandbox-image-offline.sh";

/** True when a Docker engine answers (DOCKER_HOST or the default socket). */
export function dockerAvailable(): Promise<boolean> {
  return pingDocker(dockerClient());
}

let warnedLocal = false;

/**
 * One warm sandbox over a copy of `options.repoDir`. `auto` picks docker when
 * the engine answers and the image exists, else local with a warning (once);
 * `onFallback` hears why, so the run can record it.
 */
export async function createSandbox(
  backend: "docker" | "local" | "auto",
  options: SandboxOptions,
  log?: Logger,
  onFallback?: (reason: string) => void,
): Promise<Sandbox> {
  const info = await stat(options.repoDir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UserError(`repository directory not found: ${options.repoDir}`, "pass the path of a checkout");
  }
  if (backend === "local") return LocalSandbox.create(options);

  const docker = dockerClient();
  const reachable = await pingDocker(docker);
  const hasImage = reachable && (await imageExists(docker, options.image));
  if (backend === "docker") {
    if (!reachable) {
      throw new UserError(
        "Docker engine not reachable",
        "start dockerd (bash scripts/provision.sh does) or use --sandbox local",
      );
    }
    if (!hasImage) throw new UserError(`sandbox image ${options.image} not found`, BUILD_HINT);
    return DockerSandbox.create(options, log, docker);
  }
  if (hasImage) return DockerSandbox.create(options, log, docker);
  const why = reachable ? `image ${options.image} not found (${BUILD_HINT})` : "Docker engine not reachable";
  onFallback?.(why);
  if (!warnedLocal) {
    warnedLocal = true;
    process.stderr.write(`hypofix: warning: ${why}; running in the local sandbox, without isolation\n`);
  }
  return LocalSandbox.create(options);
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
