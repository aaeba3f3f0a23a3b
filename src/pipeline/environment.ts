import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.js";
import { UserError } from "../errors.js";
import type { Language } from "../lang/types.js";
import type { Logger } from "../log.js";
import { commandArgv, languageSetting, type RepoConfig } from "../repo-config.js";
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
  /** The repository's language: its images, setup and dependency files. */
  language: Language;
  /** The repository's identity (owner/name, or the checkout's path): environments are cached per repository. */
  scope: string;
  /** The failed CI job's log excerpt: the toolchain version it ran may be read from it. */
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
 * The environment phase: the backend, the toolchain version and the setup of this
 * job, and for docker the environment image (cached or built). A setup that fails
 * is an outcome with the last lines of its log, never an exception.
 */
export async function environmentPhase(input: EnvironmentInput): Promise<EnvironmentOutcome> {
  const workingDirectory = input.repoConfig.working_directory ?? "";
  // Checked first: a working directory that is not a real folder is the user's to fix.
  await dependencyFiles(input.repoDir, workingDirectory, input.language.environment.dependencyFile);
  const configured = commandArgv(input.repoConfig.setup_command);
  // A configured setup runs where the configuration says: the working directory.
  const root = configured
    ? workingDirectory
    : await setupRoot(input.repoDir, workingDirectory, input.language);
  const files = await dependencyFiles(input.repoDir, root, input.language.environment.dependencyFile);
  const image = input.language.environment.imageBase(input.config);
  const backend = await resolveBackend(input.backend, image, input.onFallback);
  return backend === "local"
    ? localEnvironment(input, configured)
    : dockerEnvironment(input, files, configured, root);
}

/**
 * Where the setup runs: the language's install root of the working directory (a workspace's
 * root), found by files that exist as regular files (lstat: no link is followed), else the
 * working directory.
 */
async function setupRoot(repoDir: string, workingDirectory: string, language: Language): Promise<string> {
  const find = language.environment.installRoot;
  if (!find) return workingDirectory;
  const files = new Set<string>();
  const wd = path.posix.normalize(workingDirectory || ".");
  for (let dir = wd; ; dir = path.posix.dirname(dir)) {
    const entries = await readdir(path.join(repoDir, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isFile()) files.add(path.posix.join(dir === "." ? "" : dir, e.name));
    if (dir === "." || dir === "/") break;
  }
  return find(workingDirectory, (repoPath) => files.has(repoPath));
}

/** The user's own machine: only a setup they configured runs, never a detected pip install. */
function localEnvironment(input: EnvironmentInput, configured: string[] | undefined): EnvironmentOutcome {
  const setup = configured ? [commandLine(configured)] : [];
  const workingDirectory = input.repoConfig.working_directory;
  const { language } = input;
  return {
    backend: "local",
    image: language.environment.imageBase(input.config),
    ...(configured ? { setupCommand: configured } : {}),
    record: {
      image: "local",
      language: language.id,
      cached: false,
      setup,
      ...(configured ? { setupSource: "config: setup_command" } : {}),
      pytestSetAside: [],
      optionsSetAside: [],
      testRunner: language.testRunner,
      ...(workingDirectory ? { workingDirectory } : {}),
    },
    progress: `local sandbox (host ${language.name})${configured ? `, setup: ${setup[0]}` : ""}`,
  };
}

async function dockerEnvironment(
  input: EnvironmentInput,
  files: Map<string, string>,
  configured: string[] | undefined,
  setupDir: string,
): Promise<EnvironmentOutcome> {
  const { config, repoConfig, language } = input;
  const spec = language.environment;
  const workingDirectory = repoConfig.working_directory ?? "";
  const docker = dockerClient();
  const imageBase = spec.imageBase(config);
  const images = await baseImages(docker, imageBase, spec.images);
  const available = [...images.byVersion.keys()];
  const configuredVersion = languageSetting(repoConfig, spec.versionKey);
  const choice = spec.chooseVersion({
    available,
    fallback: images.fallback?.version ?? available[0] ?? spec.defaultVersion,
    ...(configuredVersion ? { configured: configuredVersion } : {}),
    dependencyFiles: files,
    ...(input.ciLog ? { ciLog: input.ciLog } : {}),
  });
  const base = images.byVersion.get(choice.version) ?? images.fallback;
  if (!base) {
    throw new UserError(`sandbox image ${imageBase} not found`, "bash scripts/provision.sh builds it");
  }
  const plan = configured
    ? { commands: [configured], source: "config: setup_command" }
    : detectedAt(spec.detectSetup(files), setupDir, workingDirectory);
  const record: EnvironmentRecord = {
    image: base.tag,
    language: language.id,
    version: choice.version,
    runtime: `${language.name} ${choice.version}`,
    // result.json's first name for the version, kept for its readers.
    ...(language.id === "python" ? { python: choice.version } : {}),
    cached: false,
    setup: (plan?.commands ?? []).map(commandLine),
    ...(plan ? { setupSource: plan.source } : {}),
    pytestSetAside: [],
    optionsSetAside: [],
    testRunner: language.testRunner,
    ...(workingDirectory ? { workingDirectory } : {}),
  };
  const said = [
    `${language.name} ${choice.version} (${choice.reason}${choice.asked ? `: asked ${choice.asked}` : ""})`,
    plan ? `setup ${plan.source}: ${record.setup.join(" && ")}` : "no setup",
  ].join("; ");
  try {
    const env = await prepareEnvironment(
      {
        base,
        repoDir: input.repoDir,
        workingDirectory: setupDir,
        setup: plan?.commands ?? [],
        dependencyFiles: [...files].map(([name, content]) => ({
          path: path.posix.join(setupDir, name),
          content,
        })),
        scope: input.scope,
        allowNetwork: input.allowSetupNetwork,
        limits: config.sandbox.limits,
        setupTimeoutMs: config.environment.setupTimeoutMs,
        setupEnv: spec.setupEnv(config),
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

/** A detected setup that runs above the working directory says where (a workspace's root). */
function detectedAt(
  plan: { commands: string[][]; source: string } | undefined,
  setupDir: string,
  workingDirectory: string,
): { commands: string[][]; source: string } | undefined {
  if (!plan || path.posix.normalize(setupDir || ".") === path.posix.normalize(workingDirectory || "."))
    return plan;
  return { ...plan, source: `${plan.source} (in ${setupDir || "the repository root"})` };
}

/**
 * The dependency files directly in the working directory, read from the host
 * checkout without following a symbolic link anywhere on the way (the repository
 * is untrusted). A working directory that is not a real folder is a UserError.
 */
export async function dependencyFiles(
  repoDir: string,
  workingDirectory: string,
  dependencyFile: RegExp,
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
    if (!entry.isFile() || !dependencyFile.test(entry.name)) continue;
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
