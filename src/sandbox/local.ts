import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { cp, lstat, mkdir, mkdtemp, open, realpath, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sandboxDeadline, timeLeft } from "./deadline.js";
import { ignoredHelper } from "./helpers.js";
import { CappedSink } from "./output.js";
import type { ExecOptions, ExecResult, Sandbox, SandboxOptions, SnapshotId } from "./types.js";

/** Host variables a command may see; everything else (tokens, keys) stays out. */
const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ"];

/** As a shell reports it: 127 for a program that does not exist, 126 for one that cannot start. */
const spawnExitCode = (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? 127 : 126);

/** Copies links as links (never their targets), so a repository link is not followed on copy-in or snapshots. */
const copyTree = (from: string, to: string, filter?: (src: string) => boolean) =>
  cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, filter });

/** The real path of `full`; for a path that does not exist yet, its nearest existing ancestor's plus the rest. */
async function realPathOf(full: string): Promise<string> {
  try {
    return await realpath(full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    // A dangling link stays as it is: opening it with O_NOFOLLOW refuses it below.
    if ((await lstat(full).catch(() => undefined))?.isSymbolicLink()) return full;
    const parent = path.dirname(full);
    if (parent === full) return full;
    return path.join(await realPathOf(parent), path.basename(full));
  }
}

const inside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * Plain child processes over a temporary copy of the repository: the same
 * timeouts and output caps as the docker backend, but no isolation. Only for
 * the CLI on the user's own code.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = "local" as const;
  readonly workdir: string;
  readonly helpersDir: string;
  private readonly tmp: string;
  private readonly snapshotsDir: string;
  private snapshots = 0;
  private disposed = false;
  private readonly deadline: number;

  private constructor(
    /** The sandbox's directory, as a real path (links resolved). */
    private readonly root: string,
    private readonly options: SandboxOptions,
  ) {
    this.deadline = sandboxDeadline(options);
    this.workdir = path.join(root, "work");
    this.helpersDir = path.join(root, "helpers");
    this.tmp = path.join(root, "tmp");
    this.snapshotsDir = path.join(root, "snapshots");
  }

  static async create(options: SandboxOptions): Promise<LocalSandbox> {
    const root = await realpath(await mkdtemp(path.join(tmpdir(), "hypofix-sbx-")));
    const sandbox = new LocalSandbox(root, options);
    try {
      await copyTree(path.resolve(options.repoDir), sandbox.workdir);
      const { helpers } = options.support;
      await copyTree(
        helpers.dir,
        sandbox.helpersDir,
        (src) => !ignoredHelper(path.relative(helpers.dir, src), helpers),
      );
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

  /**
   * The real path of a file Hypofix reads or writes: a repository link may point
   * anywhere on the host, so a path that resolves outside the sandbox is refused.
   */
  private async hostPath(p: string): Promise<string> {
    const real = await realPathOf(this.resolve(p));
    if (!inside(this.root, real)) throw new Error(`${p}: refused, it leads outside the sandbox (to ${real})`);
    return real;
  }

  exec(argv: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const [command, ...args] = argv;
    if (this.disposed) return Promise.reject(new Error("sandbox already disposed"));
    if (command === undefined) return Promise.reject(new Error("exec needs a command"));
    const timeoutMs = timeLeft(this.deadline, options.timeoutMs ?? this.options.limits.timeoutMs);
    const cap = options.maxOutputBytes ?? this.options.limits.outputBytes;
    const env: Record<string, string> = { ...this.options.support.env, TMPDIR: this.tmp };
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

  /**
   * Opens a regular file at its real path. O_NOFOLLOW: a link put in its place
   * after hostPath looked is refused, not followed; O_NONBLOCK: a FIFO cannot hang us.
   */
  private async openFile(p: string, real: string, flags: number): Promise<FileHandle> {
    const file = await open(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644).catch(
      (err: NodeJS.ErrnoException) => {
        throw err.code === "ELOOP" ? new Error(`${p}: refused, it is a link`) : err;
      },
    );
    if (!(await file.stat()).isFile()) {
      await file.close();
      throw new Error(`${p}: refused, not a regular file`);
    }
    return file;
  }

  async readFile(p: string): Promise<string> {
    const file = await this.openFile(p, await this.hostPath(p), constants.O_RDONLY);
    try {
      return await file.readFile("utf8");
    } finally {
      await file.close();
    }
  }

  /**
   * Writes go to the file itself, never through a link, not even one that stays inside:
   * the folder is resolved, the name is not, and O_NOFOLLOW refuses a link there.
   */
  async writeFile(p: string, content: string): Promise<void> {
    const full = this.resolve(p);
    const folder = await this.hostPath(path.dirname(full));
    const real = path.join(folder, path.basename(full));
    if (!inside(this.root, real) || real === this.root)
      throw new Error(`${p}: refused, it leads outside the sandbox`);
    await mkdir(folder, { recursive: true });
    const file = await this.openFile(p, real, constants.O_WRONLY | constants.O_CREAT);
    try {
      await file.truncate(0);
      await file.writeFile(content);
    } finally {
      await file.close();
    }
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
