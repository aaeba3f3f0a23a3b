import { createHash, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import type Docker from "dockerode";
import { quote } from "shell-quote";
import tar from "tar-fs";
import type { EgressSettings, SandboxLimits } from "../config.js";
import type { Logger } from "../log.js";
import { dockerClient, runExec } from "./docker.js";
import { openEgress } from "./egress.js";
import { LABEL_DEADLINE, LABEL_JOB, LABEL_OWNER_HOST, LABEL_OWNER_PID, LABEL_SANDBOX } from "./reaper.js";
import type { BaseImage } from "./images.js";

/*
 * Environments: a base image plus the repository's setup (e.g. pip install ...), built
 * once in a build container and committed as an image that test sandboxes start
 * from. The build container is the only one with a network: a network of its own
 * whose only way out is the egress proxy of egress.ts (an allowlist of package hosts),
 * with a writable root, non-root, no capabilities. Test containers never get a network.
 */

export const ENV_REPOSITORY = "hypofix/env";
export const LABEL_ENV = "org.hypofix.env";
export const LABEL_ENV_SCOPE = "org.hypofix.env.scope";
/** Bumped when the way environments are built changes, so old images are not reused. */
const RECIPE = "2";
const WORKDIR = "/work";
const MIB = 1024 * 1024;
const LOG_TAIL_LINES = 20;

export interface EnvironmentRequest {
  base: BaseImage;
  repoDir: string;
  /** Relative to the repository root; "" for the root. Setup runs there. */
  workingDirectory: string;
  /** argv of each setup command; none: the base image is the environment. */
  setup: string[][];
  /** Dependency files (path relative to the repository, content): with base and setup, the cache key. */
  dependencyFiles: { path: string; content: string }[];
  /** The repository the environment belongs to: images are never shared across repositories. */
  scope: string;
  /** False for a fork's head: setup never runs with network for it; a cached environment is still used. */
  allowNetwork: boolean;
  limits: SandboxLimits;
  setupTimeoutMs: number;
  /** Variables for the setup commands only, never baked into the image (the language's, e.g. pip's index). */
  setupEnv: Record<string, string>;
  /** What the setup may reach: the allowlist and the mirrors (with their credentials, which stay in the proxy). */
  egress: EgressSettings;
  /** Size cap of all environment images; least recently used ones past it are removed after a build. */
  cacheBytes: number;
  jobId?: string;
}

export interface Environment {
  image: string;
  cached: boolean;
  /** Set when the setup was not run; says why. */
  skipped?: string;
  /** Build time, 0 when none. */
  buildMs: number;
}

/** The setup failed: the job ends with status error and these last lines of its log. */
export class SetupFailed extends Error {
  constructor(
    message: string,
    readonly logTail: string,
  ) {
    super(message);
    this.name = "SetupFailed";
  }
}

/** A command as one line for people (progress, result.json), quoted like a shell would need. */
export const commandLine = (argv: string[]): string => quote(argv);

/** The cache key: a hash of everything that decides what the setup installs. */
export function environmentKey(
  request: Omit<EnvironmentRequest, "limits" | "setupEnv" | "egress" | "cacheBytes" | "repoDir">,
): string {
  const hash = createHash("sha256");
  const files = [...request.dependencyFiles].sort((a, b) => a.path.localeCompare(b.path));
  hash.update(
    JSON.stringify({
      recipe: RECIPE,
      base: request.base.id,
      scope: request.scope,
      workingDirectory: request.workingDirectory,
      setup: request.setup,
      files: files.map((f) => [f.path, createHash("sha256").update(f.content).digest("hex")]),
    }),
  );
  return hash.digest("hex").slice(0, 32);
}

const scopeLabel = (scope: string) => createHash("sha256").update(scope).digest("hex").slice(0, 16);

/**
 * The image test sandboxes of this job start from: the base image when there is
 * no setup, a cached environment when one matches, else a new build (pruning old
 * environments past the cap afterwards). Throws SetupFailed when the setup fails.
 */
export async function prepareEnvironment(
  request: EnvironmentRequest,
  log?: Logger,
  docker: Docker = dockerClient(),
): Promise<Environment> {
  if (request.setup.length === 0) return { image: request.base.tag, cached: false, buildMs: 0 };
  const tag = environmentKey(request);
  const image = `${ENV_REPOSITORY}:${tag}`;
  if (await imagePresent(docker, image)) {
    // Re-tagging stamps the image's LastTagTime: the pruner's "last used".
    await docker.getImage(image).tag({ repo: ENV_REPOSITORY, tag });
    return { image, cached: true, buildMs: 0 };
  }
  if (!request.allowNetwork) {
    return {
      image: request.base.tag,
      cached: false,
      skipped: "setup not run: it never runs with network for a fork's head",
      buildMs: 0,
    };
  }
  const started = performance.now();
  await buildEnvironment(docker, request, tag, log);
  const buildMs = performance.now() - started;
  log?.info({ image, ms: Math.round(buildMs) }, "environment built");
  await pruneEnvironments(docker, request.cacheBytes, { ...(log ? { log } : {}) }).catch((err: unknown) => {
    log?.warn({ err }, "could not prune environment images");
  });
  return { image, cached: false, buildMs };
}

async function imagePresent(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return false;
    throw err;
  }
}

async function buildEnvironment(
  docker: Docker,
  request: EnvironmentRequest,
  tag: string,
  log?: Logger,
): Promise<void> {
  const { limits } = request;
  const workdir = path.posix.join(WORKDIR, request.workingDirectory);
  const labels: Record<string, string> = {
    // Reaped like a sandbox when its worker dies mid-build.
    [LABEL_SANDBOX]: "1",
    [LABEL_OWNER_PID]: String(process.pid),
    [LABEL_OWNER_HOST]: hostname(),
    [LABEL_DEADLINE]: String(Date.now() + limits.maxAgeMs),
    [LABEL_ENV]: "1",
    [LABEL_ENV_SCOPE]: scopeLabel(request.scope),
    ...(request.jobId ? { [LABEL_JOB]: request.jobId } : {}),
  };
  const egress = await openEgress(docker, request.egress, labels, log);
  const created = docker.createContainer({
    name: `hypofix-env-${process.pid}-${randomUUID().slice(0, 8)}`,
    Image: request.base.tag,
    Cmd: ["sleep", "infinity"],
    User: "10001:10001",
    // The repository is copied in after start; commands run in the working directory then.
    WorkingDir: WORKDIR,
    Labels: labels,
    HostConfig: {
      NetworkMode: egress.network,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      // The venv under /opt is what gets committed; the repository copy and temp files are not (tmpfs).
      ReadonlyRootfs: false,
      // A setup's output comes back over exec streams; container logs would only fill the disk.
      LogConfig: { Type: "none", Config: {} },
      Tmpfs: {
        "/tmp": `rw,exec,nosuid,nodev,size=${limits.workMb}m`,
        [WORKDIR]: `rw,exec,nosuid,nodev,size=${limits.workMb}m,uid=10001,gid=10001,mode=0755`,
      },
      Memory: limits.memoryMb * MIB,
      MemorySwap: limits.memoryMb * MIB,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
    },
  });
  const container = await created.catch(async (err: unknown) => {
    await egress.close();
    throw err;
  });
  try {
    await container.start();
    const copy = await runExec(container, {
      argv: ["tar", "-x", "--no-same-owner", "-C", WORKDIR, "-f", "-"],
      workingDir: WORKDIR,
      stdin: tar.pack(request.repoDir),
      timeoutMs: limits.timeoutMs,
      maxOutputBytes: limits.outputBytes,
    });
    if (copy.exitCode !== 0) throw new Error(`copy into the build container failed: ${copy.stderr.trim()}`);
    for (const argv of request.setup) {
      const res = await runExec(container, {
        argv,
        workingDir: workdir,
        env: { ...request.setupEnv, ...egress.env },
        timeoutMs: request.setupTimeoutMs,
        maxOutputBytes: 4 * MIB,
      });
      log?.debug({ command: commandLine(argv), exit: res.exitCode, ms: Math.round(res.durationMs) }, "setup");
      if (res.exitCode !== 0) {
        const why = res.timedOut
          ? `timed out after ${Math.round(request.setupTimeoutMs / 1000)}s`
          : `exit ${res.exitCode}`;
        const refused = await egress.refused();
        const tail = lastLines(`${res.stdout}\n${res.stderr}`, LOG_TAIL_LINES);
        throw new SetupFailed(
          `setup command \`${commandLine(argv)}\` failed (${why})`,
          refused ? `${tail}\nhypofix: ${refused}` : tail,
        );
      }
    }
    await container.commit({ repo: ENV_REPOSITORY, tag, pause: true, comment: "hypofix environment" });
  } finally {
    await container.remove({ force: true }).catch((err: unknown) => {
      log?.warn({ err }, "could not remove the build container");
    });
    await egress.close();
  }
}

export function lastLines(text: string, count: number): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0)
    .slice(-count)
    .join("\n");
}

/**
 * Removes environment images, least recently used first (LastTagTime, stamped on
 * each reuse), until their own layers fit in `capBytes`. An image a container
 * still uses is kept (the engine refuses). `scope`: only that repository's. Returns the tags removed.
 */
export async function pruneEnvironments(
  docker: Docker,
  capBytes: number,
  options: { log?: Logger; scope?: string } = {},
): Promise<string[]> {
  const label = [`${LABEL_ENV}=1`];
  if (options.scope) label.push(`${LABEL_ENV_SCOPE}=${scopeLabel(options.scope)}`);
  const images = await docker.listImages({ filters: { label } });
  const sized = await Promise.all(
    images.map(async (image) => {
      const info = await docker.getImage(image.Id).inspect();
      const parent = info.Parent
        ? await docker
            .getImage(info.Parent)
            .inspect()
            .catch(() => undefined)
        : undefined;
      // Metadata is in the engine's answer but not in @types/dockerode.
      const { Metadata } = info as { Metadata?: { LastTagTime?: string } };
      const lastUsed = Date.parse(Metadata?.LastTagTime ?? "") || Date.parse(info.Created);
      return { id: image.Id, tags: image.RepoTags ?? [], own: info.Size - (parent?.Size ?? 0), lastUsed };
    }),
  );
  sized.sort((a, b) => b.lastUsed - a.lastUsed);
  const removed: string[] = [];
  let total = 0;
  for (const image of sized) {
    total += Math.max(image.own, 0);
    if (total <= capBytes) continue;
    try {
      await docker.getImage(image.id).remove();
      removed.push(...image.tags);
    } catch (err) {
      // 409: a container still runs from it; 404: another worker pruned it.
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== 409 && status !== 404) throw err;
    }
  }
  if (removed.length > 0) options.log?.info({ removed }, "pruned environment images");
  return removed;
}
