import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.js";
import { UserError } from "../errors.js";
import { choosePython, DEPENDENCY_FILE, detectSetup, requiresPython } from "../lang/python/project.js";
import type { Logger } from "../log.js";
import { commandArgv, type RepoConfig } from "../repo-config.js";
import type { Result } from "../result.js";
import { commandLine, prepareEnvironment, SetupFailed } from "../sandbox/environment.js";
import { baseImages } from "../sandbox/images.js";
import { dockerClient } from "../sandbox/docker.js";
import { resolveBackend, type SandboxBackend } from "../sandbox/index.js";

export type EnvironmentRecord = NonNullable<Result["environment"]>;

export interface EnvironmentInput {
  repoDir: string;
  backend: SandboxBackend | "auto";
  /** Hears why `auto` fell back to the local sandbox. */
  onFallback?: (reason: string) => void;
  config: Config;
  repoConfig: RepoConfig;
  /** The repository's identity (owner/name, or the checkout's path): environments are cached per repository. */
  scope: string;
  /** The failed CI job's log excerpt: the Python version it ran may be read from it. */
  ciLog?: string;
  /** False for a fork's head: its setup never runs with network (a cached environment is still used). */
  allowSetupNetwork: boolean;
  jobId?: string;
  log?: Logger;
}

export type EnvironmentOutcome =
  | {
      backend: SandboxBackend;
      image: string;
      /** Local backend only: the configured setup, run in the local copy. */
      setupCommand?: string[];
      record: EnvironmentRecord;
      progress: string;
    }
  | { error: string; record?: EnvironmentRecord; progress: string };

/** Dependency files are small; anything bigger is not read (and not hashed). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The environment phase: the backend, the Python version and the setup of this
 * job, and for docker the environment image (cached or built). A setup that fails
 * is an outcome with the last lines of its log, never an exception.
 */
export async function environmentPhase(input: EnvironmentInput): Promise<EnvironmentOutcome> {
  const workingDirectory = input.repoConfig.working_directory ?? "";
  const files = await dependencyFiles(input.repoDir, workingDirectory);
  const configured = commandArgv(input.repoConfig.setup_command);
  const backend = await resolveBackend(input.backend, input.config.sandbox.image, input.onFallback);
  return backend === "local"
    ? localEnvironment(input, configured)
    : dockerEnvironment(input, files, configured);
}

/** The user's own machine: only a setup they configured runs, never a detected pip install. */
function localEnvironment(input: EnvironmentInput, configured: string[] | undefined): EnvironmentOutcome {
  const setup = configured ? [commandLine(configured)] : [];
  const workingDirectory = input.repoConfig.working_directory;
  return {
    backend: "local",
    image: input.config.sandbox.image,
    ...(configured ? { setupCommand: configured } : {}),
    record: {
      image: "local",
      cached: false,
      setup,
      ...(configured ? { setupSource: "config: setup_command" } : {}),
      pytestSetAside: [],
      ...(workingDirectory ? { workingDirectory } : {}),
    },
    progress: `local sandbox (host Python)${configured ? `, setup: ${setup[0]}` : ""}`,
  };
}

async function dockerEnvironment(
  input: EnvironmentInput,
  files: Map<string, string>,
  configured: string[] | undefined,
): Promise<EnvironmentOutcome> {
  const { config, repoConfig } = input;
  const workingDirectory = repoConfig.working_directory ?? "";
  const docker = dockerClient();
  const images = await baseImages(docker, config.sandbox.image);
  const requires = requiresPython(files.get("pyproject.toml"));
  const choice = choosePython({
    available: [...images.byVersion.keys()],
    fallback: images.fallback?.python ?? [...images.byVersion.keys()][0] ?? "3.11",
    ...(repoConfig.python_version ? { configured: repoConfig.python_version } : {}),
    ...(requires ? { requires } : {}),
    ...(input.ciLog ? { ciLog: input.ciLog } : {}),
  });
  const base = images.byVersion.get(choice.version) ?? images.fallback;
  if (!base) {
    throw new UserError(
      `sandbox image ${config.sandbox.image} not found`,
      "bash scripts/provision.sh builds it",
    );
  }
  const plan = configured ? { commands: [configured], source: "config: setup_command" } : detectSetup(files);
  const record: EnvironmentRecord = {
    image: base.tag,
    python: choice.version,
    cached: false,
    setup: (plan?.commands ?? []).map(commandLine),
    ...(plan ? { setupSource: plan.source } : {}),
    pytestSetAside: [],
    ...(workingDirectory ? { workingDirectory } : {}),
  };
  const said = [
    `Python ${choice.version} (${choice.reason}${choice.asked ? `: asked ${choice.asked}` : ""})`,
    plan ? `setup ${plan.source}: ${record.setup.join(" && ")}` : "no setup",
  ].join("; ");
  try {
    const env = await prepareEnvironment(
      {
        base,
        repoDir: input.repoDir,
        workingDirectory,
        setup: plan?.commands ?? [],
        dependencyFiles: [...files].map(([name, content]) => ({
          path: path.posix.join(workingDirectory, name),
          content,
        })),
        scope: input.scope,
        allowNetwork: input.allowSetupNetwork,
        limits: config.sandbox.limits,
        setupTimeoutMs: config.environment.setupTimeoutMs,
        egress: config.environment.egress,
        cacheBytes: config.environment.cacheBytes,
        ...(input.jobId ? { jobId: input.jobId } : {}),
      },
      input.log,
      docker,
    );
    record.image = env.image;
    record.cached = env.cached;
    if (env.skipped) {
      record.setupSource = `${record.setupSource ?? "none"}; ${env.skipped}`;
      record.setup = [];
    }
    const how = env.skipped
      ? env.skipped
      : env.cached
        ? `cached environment ${env.image}`
        : plan
          ? `built ${env.image} in ${(env.buildMs / 1000).toFixed(1)} s`
          : `base image ${env.image}`;
    return { backend: "docker", image: env.image, record, progress: `${said}; ${how}` };
  } catch (err) {
    if (!(err instanceof SetupFailed)) throw err;
    return {
      error: `${err.message}; last lines of its log:\n${err.logTail}`,
      record,
      progress: `${said}; the setup failed`,
    };
  }
}

/**
 * The dependency files directly in the working directory, read from the host
 * checkout without following a symbolic link anywhere on the way (the repository
 * is untrusted). A working directory that is not a real folder is a UserError.
 */
export async function dependencyFiles(
  repoDir: string,
  workingDirectory: string,
): Promise<Map<string, string>> {
  let dir = path.resolve(repoDir);
  for (const part of workingDirectory.split("/").filter((p) => p && p !== ".")) {
    dir = path.join(dir, part);
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new UserError(
        `working_directory ${workingDirectory} is not a folder of the repository`,
        "fix working_directory in .github/hypofix.yml",
      );
    }
  }
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !DEPENDENCY_FILE.test(entry.name)) continue;
    const handle = await open(path.join(dir, entry.name), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const { size } = await handle.stat();
      if (size <= MAX_FILE_BYTES) files.set(entry.name, await handle.readFile("utf8"));
    } finally {
      await handle.close();
    }
  }
  return files;
}
