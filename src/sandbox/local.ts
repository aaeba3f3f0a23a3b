import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { helpersSourceDir, ignoredHelper } from "./helpers.js";
import { CappedSink } from "./output.js";
import type { ExecOptions, ExecResult, Sandbox, SandboxOptions, SnapshotId } from "./types.js";

/** Host variables a command may see; everything else (tokens, keys) stays out. */
const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ"];

/** As a shell reports it: 127 for a program that does not exist, 126 for one that cannot start. */
const spawnExitCode = (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? 127 : 126);

const copyTree = (from: string, to: string, filter?: (src: string) => boolean) =>
  cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, filter });

/**
 * Plain child processes over a temporary copy of the repository: the same
 * timeouts and output caps as the docker backend, but no isolation. Only for
 * the CLI on the user's own code.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = "local" as const;
  readonly python = process.env.HYPOFIX_PYTHON ?? "python3";
  readonly workdir: string;
  readonly helpersDir: string;
  private readonly tmp: string;
  private readonly snapshotsDir: string;
  private snapshots = 0;
  private disposed = false;

  private constructor(
    private readonly root: string,
    private readonly options: SandboxOptions,
  ) {
    this.workdir = path.join(root, "work");
    this.helpersDir = path.join(root, "helpers");
    this.tmp = path.join(root, "tmp");
    this.snapshotsDir = path.join(root, "snapshots");
  }

  static async create(options: SandboxOptions): Promise<LocalSandbox> {
    const root = await mkdtemp(path.join(tmpdir(), "hypofix-sbx-"));
    const sandbox = new LocalSandbox(root, options);
    try {
      await copyTree(path.resolve(options.repoDir), sandbox.workdir);
      const helpers = helpersSourceDir();
      await copyTree(helpers, sandbox.helpersDir, (src) => !ignoredHelper(path.relative(helpers, src)));
      await mkdir(sandbox.helpersDir, { recursive: true });
      await mkdir(sandbox.tmp, { recursive: true });
      await mkdir(sandbox.snapshotsDir, { recursive: true });
      if (options.setupCommand?.length) {
        const res = await sandbox.exec(options.setupCommand);
        if (res.exitCode !== 0) {
          const why = res.timedOut ? "timed out" : `exit ${res.exitCode}`;
          throw new Error(`setup command failed (${why}): ${res.stderr.trim().slice(-2000)}`);
        }
      }
      return sandbox;
    } catch (err) {
      await sandbox.dispose();
      throw err;
    }
  }

  private resolve(p: string): string {
    return path.resolve(this.workdir, p);
  }

  exec(argv: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const [command, ...args] = argv;
    if (this.disposed) return Promise.reject(new Error("sandbox already disposed"));
    if (command === undefined) return Promise.reject(new Error("exec needs a command"));
    const timeoutMs = options.timeoutMs ?? this.options.limits.timeoutMs;
    const cap = options.maxOutputBytes ?? this.options.limits.outputBytes;
    const env: Record<string, string> = {
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONUNBUFFERED: "1",
      TMPDIR: this.tmp,
    };
    for (const name of PASSED_ENV) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, options.env);

    const started = performance.now();
    const stdout = new CappedSink(cap);
    const stderr = new CappedSink(cap);
    // Own process group, so a timeout kills the whole tree.
    const child = spawn(command, args, { cwd: this.resolve(options.cwd ?? "."), env, detached: true });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout.pipe(stdout);
    child.stderr.pipe(stderr);
    child.stdin.on("error", () => {
      // The command may exit without reading its stdin (EPIPE).
    });
    child.stdin.end(options.stdin ?? "");

    return new Promise((resolve) => {
      let spawnError: NodeJS.ErrnoException | undefined;
      child.on("error", (err) => {
        spawnError = err;
      });
      // Background processes the command left behind would hold the pipes open: end them with it.
      child.on("exit", killGroup);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({
          exitCode: timedOut ? null : spawnError ? spawnExitCode(spawnError) : code,
          stdout: stdout.text(),
          stderr: spawnError ? `${stderr.text()}${spawnError.message}\n` : stderr.text(),
          timedOut,
          truncated: stdout.truncated || stderr.truncated,
          durationMs: performance.now() - started,
        });
      });
    });
  }

  readFile(p: string): Promise<string> {
    return readFile(this.resolve(p), "utf8");
  }

  async writeFile(p: string, content: string): Promise<void> {
    const full = this.resolve(p);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }

  async snapshot(): Promise<SnapshotId> {
    const id = `s${++this.snapshots}`;
    await copyTree(this.workdir, path.join(this.snapshotsDir, id));
    return id;
  }

  async restore(id: SnapshotId): Promise<void> {
    if (!/^s\d+$/.test(id) || Number(id.slice(1)) > this.snapshots) throw new Error(`unknown snapshot ${id}`);
    await rm(this.workdir, { recursive: true, force: true });
    await copyTree(path.join(this.snapshotsDir, id), this.workdir);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await rm(this.root, { recursive: true, force: true });
  }
}
