import type { SandboxLimits } from "../config.js";

/** Where untrusted code runs. One instance is one warm environment for a job. */
export interface Sandbox {
  readonly kind: "docker" | "local";
  /** Absolute path of the repository copy inside the sandbox. Commands run here by default. */
  readonly workdir: string;
  /** Absolute path inside the sandbox where Hypofix's helper files live (docker: not writable by tests). */
  readonly helpersDir: string;

  /**
   * Runs argv (no shell) with a wall-clock timeout, cut to the time left before the
   * sandbox's deadline; never throws for a non-zero exit or a timeout. Throws
   * SandboxExpired once the deadline has passed.
   */
  exec(argv: string[], options?: ExecOptions): Promise<ExecResult>;
  /** Reads a file, path relative to workdir (or absolute inside the sandbox). */
  readFile(path: string): Promise<string>;
  /** Writes a file, creating parent directories; path relative to workdir. */
  writeFile(path: string, content: string): Promise<void>;
  /** Saves the working tree; restore() brings it back exactly (experiments edit a scratch copy). */
  snapshot(): Promise<SnapshotId>;
  restore(id: SnapshotId): Promise<void>;
  /** Removes the environment. Safe to call twice. */
  dispose(): Promise<void>;
}

export type SnapshotId = string;

export interface ExecOptions {
  /** Wall-clock limit; the process tree is killed when it passes. Default: limits.timeoutMs. */
  timeoutMs?: number;
  /** Working directory, relative to workdir or absolute. */
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /** Cap on stdout and stderr each; output past it is cut and marked. Default: limits.outputBytes. */
  maxOutputBytes?: number;
}

export interface ExecResult {
  /** null when the process was killed (timeout, signal). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when stdout or stderr was cut at the cap (the text then ends with TRUNCATION_MARK). */
  truncated: boolean;
  durationMs: number;
}

export const TRUNCATION_MARK = "\n[... output truncated by hypofix at the sandbox output cap ...]\n";

export type SandboxBackend = "docker" | "local";

/**
 * What the repository's language gives a sandbox, as plain data (the Language port's
 * `sandbox`, lang/types.ts): the sandbox itself knows no language. A docker sandbox runs
 * `init` as PID 1 and `supervisor` as its command runner; both must be programs the image
 * has, so an image without the language's interpreter can still be a sandbox when its
 * language brings its own.
 */
export interface SandboxSupport {
  /**
   * The helper files the language's instruments run in the sandbox: every file of the
   * host folder `dir` is copied into `helpersDir` (read-only for the tests in docker),
   * except those with a path part named in `ignore` (e.g. `__pycache__`).
   */
  helpers: { dir: string; ignore: string[] };
  /**
   * PID 1 of a docker sandbox (argv): it must reap orphans forever, and make itself not
   * dumpable so the tests cannot read its memory. As PID 1 it ignores the signals sent
   * from inside, so a command's `kill -9 -1` cannot stop the container.
   */
  init: string[];
  /**
   * The in-container command runner (argv), started by one long-lived `docker exec`: it
   * speaks the protocol that sandbox/supervisor.ts defines on stdin and stdout.
   */
  supervisor: string[];
  /** Variables every command in the sandbox gets (e.g. `PYTHONDONTWRITEBYTECODE=1`). */
  env: Record<string, string>;
}

export interface SandboxOptions {
  /** The repository to copy into the sandbox (the original is never modified). */
  repoDir: string;
  image: string;
  limits: SandboxLimits;
  /** The language's helper files, init, command runner and variables. */
  support: SandboxSupport;
  /**
   * Local backend only: run this command in the copy before tests, e.g. `pip install -e .`.
   * Docker sandboxes start from an environment image instead (environment.ts) and reject it.
   */
  setupCommand?: string[];
  /** Labels a job id onto the container so logs and reaping can find it. */
  jobId?: string;
  /**
   * Epoch ms past which no command runs (the job's deadline). The sandbox never
   * lives longer than limits.maxAgeMs either; a docker sandbox past it is reaped.
   */
  deadline?: number;
}

/** A command was asked of a sandbox past its deadline. */
export class SandboxExpired extends Error {
  constructor(readonly deadline: number) {
    super(
      `the sandbox passed its deadline (${new Date(deadline).toISOString()}); no more commands run in it`,
    );
    this.name = "SandboxExpired";
  }
}
