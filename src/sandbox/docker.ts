import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import tar from "tar-fs";
import type { Logger } from "../log.js";
import { metrics } from "../metrics.js";
import { sandboxDeadline, timeLeft } from "./deadline.js";
import { ignoredHelper } from "./helpers.js";
import { CappedSink } from "./output.js";
import {
  LABEL_DEADLINE,
  LABEL_JOB,
  LABEL_OWNER_HOST,
  LABEL_OWNER_PID,
  LABEL_SANDBOX,
  reapLeftovers,
} from "./reaper.js";
import { Supervisor, SupervisorGone } from "./supervisor.js";
import type { ExecOptions, ExecResult, Sandbox, SandboxOptions, SnapshotId } from "./types.js";

const WORKDIR = "/work";
/** Root-owned: the tests (uid 10001, no capabilities) can read the helpers but not change them. */
const HYPOFIX_DIR = "/hypofix";
const HELPERS_DIR = `${HYPOFIX_DIR}/helpers`;
const SNAPSHOTS_DIR = `${HYPOFIX_DIR}/snapshots`;
const SANDBOX_USER = "10001:10001";
/** Still without capabilities: it owns /hypofix, and runs nothing but our tar. */
const HELPERS_OWNER = "0:0";
const MIB = 1024 * 1024;
/** How long past its timeout an exec may take before the host kills everything. */
const BACKSTOP_GRACE_MS = 3000;
/** Room for the helper files in /hypofix. */
const HELPERS_MB = 64;
/** Cap for Hypofix's own reads (readFile), far above any source file. */
const INTERNAL_OUTPUT_BYTES = 64 * MIB;

let client: Docker | undefined;
/** One dockerode client per process; DOCKER_HOST is honoured by docker-modem. */
export function dockerClient(): Docker {
  client ??= new Docker();
  return client;
}

/** True when the engine answers a ping within `timeoutMs`. */
export async function pingDocker(docker: Docker, timeoutMs = 3000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([docker.ping().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return false;
    throw err;
  }
}

let reaped: Promise<string[]> | undefined;

interface Pipeable {
  pipe(destination: NodeJS.WritableStream): unknown;
}

interface RunOptions {
  argv: string[];
  workingDir: string;
  /** Default: the container's user (the sandbox user). */
  user?: string;
  env?: Record<string, string>;
  /** Text, or a stream to pipe (a tar-fs pack, which is a streamx stream, not a node Readable). */
  stdin?: string | Pipeable;
  timeoutMs: number;
  maxOutputBytes: number;
}

/**
 * Runs one `docker exec` under `timeout -s KILL`, which kills the command's
 * process group. Used to copy files in, and for commands when the runner is down.
 */
export async function runExec(container: Docker.Container, opts: RunOptions): Promise<ExecResult> {
  const started = performance.now();
  const hasStdin = opts.stdin !== undefined;
  const exec = await container.exec({
    Cmd: ["timeout", "-s", "KILL", (opts.timeoutMs / 1000).toFixed(3), ...opts.argv],
    AttachStdin: hasStdin,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    WorkingDir: opts.workingDir,
    ...(opts.user ? { User: opts.user } : {}),
    Env: Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`),
  });
  const stream = (await exec.start({ hijack: hasStdin, stdin: hasStdin })) as NodeJS.ReadWriteStream & {
    destroy(): void;
  };
  const stdout = new CappedSink(opts.maxOutputBytes);
  const stderr = new CappedSink(opts.maxOutputBytes);
  container.modem.demuxStream(stream, stdout, stderr);
  const ended = new Promise<void>((resolve) => {
    stream.on("end", resolve);
    stream.on("close", resolve);
    stream.on("error", resolve);
  });
  if (typeof opts.stdin === "string") stream.end(opts.stdin);
  else if (opts.stdin) opts.stdin.pipe(stream);

  // Backstop for when `timeout` itself cannot act (e.g. the pid limit is exhausted):
  // kill every process of the sandbox user, then drop the stream.
  let backstopFired = false;
  const backstop = setTimeout(() => {
    backstopFired = true;
    void killAll(container).finally(() => setTimeout(() => stream.destroy(), 1000).unref());
  }, opts.timeoutMs + BACKSTOP_GRACE_MS);
  try {
    await ended;
  } finally {
    clearTimeout(backstop);
  }

  const durationMs = performance.now() - started;
  let exitCode: number | null = null;
  if (!backstopFired) {
    for (let i = 0; i < 50; i++) {
      const info = await exec.inspect();
      if (!info.Running) {
        exitCode = info.ExitCode;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  // `timeout -s KILL` kills its own group including itself: 137 at or past the deadline.
  const timedOut = backstopFired || (exitCode === 137 && durationMs >= opts.timeoutMs - 50);
  return {
    exitCode: timedOut ? null : exitCode,
    stdout: stdout.text(),
    stderr: stderr.text(),
    timedOut,
    truncated: stdout.truncated || stderr.truncated,
    durationMs,
  };
}

/** Kills every process of the sandbox user (init is spared: PID 1 ignores it); resolves once done. */
async function killAll(container: Docker.Container): Promise<void> {
  try {
    const exec = await container.exec({
      Cmd: ["sh", "-c", "kill -9 -1"],
      AttachStdout: false,
      AttachStderr: false,
    });
    await exec.start({ Detach: true });
    for (let i = 0; i < 100 && (await exec.inspect()).Running; i++)
      await new Promise((r) => setTimeout(r, 20));
  } catch {
    // The container may already be gone; dispose handles the rest.
  }
}

export class DockerSandbox implements Sandbox {
  readonly kind = "docker" as const;
  readonly workdir = WORKDIR;
  readonly helpersDir = HELPERS_DIR;
  private disposed = false;
  private snapshots = 0;
  private supervisor: Promise<Supervisor | undefined> | undefined;
  /** Set once the run's repository is in: a sandbox serves one run. */
  private loaded = false;

  private constructor(
    private readonly container: Docker.Container,
    private options: SandboxOptions,
    /** Epoch ms: no command runs past it, and any reaper removes the container after it. */
    private deadline: number,
    private readonly log?: Logger,
  ) {}

  /** Creates, starts and fills one warm container. The caller checked engine and image. */
  static async create(
    options: SandboxOptions,
    log?: Logger,
    docker = dockerClient(),
  ): Promise<DockerSandbox> {
    const sandbox = await DockerSandbox.boot(options, log, docker);
    try {
      await sandbox.load(options);
      return sandbox;
    } catch (err) {
      await sandbox.dispose();
      throw err;
    }
  }

  /**
   * Creates and starts a container with the helpers and the command runner, but no
   * repository yet: what the pool keeps warm. `load` makes it a job's sandbox.
   */
  static async boot(options: SandboxOptions, log?: Logger, docker = dockerClient()): Promise<DockerSandbox> {
    reaped ??= reapLeftovers(docker, log).catch((err: unknown) => {
      log?.warn({ err }, "could not reap leftover sandboxes");
      return [];
    });
    await reaped;

    const { limits } = options;
    if (options.setupCommand?.length) {
      // Setup runs in a build container with a network (environment.ts); a test container never has one.
      throw new Error("a docker sandbox takes no setup command: prepare an environment image first");
    }
    const deadline = sandboxDeadline(options);
    const labels: Record<string, string> = {
      [LABEL_SANDBOX]: "1",
      [LABEL_OWNER_PID]: String(process.pid),
      [LABEL_OWNER_HOST]: hostname(),
      [LABEL_DEADLINE]: String(deadline),
    };
    if (options.jobId) labels[LABEL_JOB] = options.jobId;
    const tmpfs = (sizeMb: number, owner: "sandbox" | "root" | "any") =>
      `rw,exec,nosuid,nodev,size=${sizeMb}m` +
      { sandbox: ",uid=10001,gid=10001,mode=0755", root: ",uid=0,gid=0,mode=0755", any: "" }[owner];

    const container = await docker.createContainer({
      name: `hypofix-sbx-${process.pid}-${randomUUID().slice(0, 8)}`,
      Image: options.image,
      // PID 1 (the language's init): reaps orphans so zombies never eat into the pid limit, and
      // as PID 1 ignores signals sent from inside, so a command's `kill -9 -1` (or our backstop)
      // cannot stop the container; docker-init (`Init: true`) would die with its child instead.
      Cmd: options.support.init,
      User: SANDBOX_USER,
      WorkingDir: WORKDIR,
      Env: ["HOME=/tmp", ...Object.entries(options.support.env).map(([k, v]) => `${k}=${v}`), "LANG=C.UTF-8"],
      Labels: labels,
      HostConfig: {
        NetworkMode: "none",
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        ReadonlyRootfs: true,
        // Nothing reads container logs (output travels over exec streams): none to fill the disk.
        LogConfig: { Type: "none", Config: {} },
        Tmpfs: {
          "/tmp": tmpfs(limits.workMb, "any"),
          [WORKDIR]: tmpfs(limits.workMb, "sandbox"),
          [HYPOFIX_DIR]: tmpfs(HELPERS_MB, "root"),
          // Snapshots of the work tree; the final patch is re-validated in a fresh container anyway.
          [SNAPSHOTS_DIR]: tmpfs(limits.workMb * 4, "sandbox"),
        },
        Memory: limits.memoryMb * MIB,
        MemorySwap: limits.memoryMb * MIB,
        NanoCpus: Math.round(limits.cpus * 1e9),
        PidsLimit: limits.pids,
      },
    });
    const sandbox = new DockerSandbox(container, options, deadline, log);
    try {
      await container.start();
      await sandbox.fillHelpers();
      await sandbox.runner();
      log?.debug({ container: container.id.slice(0, 12), jobId: options.jobId }, "docker sandbox ready");
      return sandbox;
    } catch (err) {
      await sandbox.dispose();
      throw err;
    }
  }

  /**
   * Copies the repository in and takes on the run's options; the deadline only
   * comes sooner (a pooled container keeps the one its labels give the reaper).
   * Called once, on a sandbox no run has used.
   */
  async load(options: SandboxOptions): Promise<void> {
    if (this.loaded) throw new Error("sandbox already holds a repository");
    if (options.image !== this.options.image) throw new Error("sandbox image does not match the run's");
    if (JSON.stringify(options.support) !== JSON.stringify(this.options.support))
      throw new Error("sandbox language support does not match the run's");
    this.loaded = true;
    this.options = options;
    this.deadline = Math.min(this.deadline, sandboxDeadline(options));
    await this.untar(tar.pack(options.repoDir), WORKDIR, SANDBOX_USER);
  }

  /** Epoch ms past which this sandbox runs nothing (and any reaper removes it). */
  get expires(): number {
    return this.deadline;
  }

  /**
   * Streams the helper files in (as the owner of /hypofix, so tests cannot change
   * them), and in `load` the repository (as the sandbox user), through `tar -x`,
   * which works on tmpfs, unlike putArchive.
   */
  private async fillHelpers(): Promise<void> {
    const { helpers } = this.options.support;
    await this.untar(
      tar.pack(helpers.dir, { ignore: (name) => ignoredHelper(path.relative(helpers.dir, name), helpers) }),
      HELPERS_DIR,
      HELPERS_OWNER,
    );
  }

  private async untar(archive: Pipeable, dest: string, user: string): Promise<void> {
    const res = await runExec(this.container, {
      argv: ["sh", "-c", 'mkdir -p -- "$1" && exec tar -x --no-same-owner -C "$1" -f -', "sh", dest],
      workingDir: "/",
      user,
      stdin: archive,
      timeoutMs: this.options.limits.timeoutMs,
      maxOutputBytes: this.options.limits.outputBytes,
    });
    if (res.exitCode !== 0)
      throw new Error(`copy into sandbox failed: ${res.stderr.trim() || `exit ${res.exitCode}`}`);
  }

  private resolve(p: string): string {
    return path.posix.resolve(WORKDIR, p);
  }

  /**
   * The in-container command runner, (re)started when missing: a command may
   * kill it (`kill -9 -1`). Undefined when it cannot start; exec then falls back
   * to one `docker exec` per command.
   */
  private async runner(): Promise<Supervisor | undefined> {
    const current = this.supervisor;
    const sup = current && (await current);
    if (sup?.alive) return sup;
    // One that never started (an image without what it needs) would not start the next time
    // either: every command would pay for the attempt. Only a runner that died is restarted.
    if (current && !sup) return undefined;
    if (this.supervisor === current) {
      this.supervisor = (async () => {
        // The old runner died: end what its commands left running, so no test code
        // is alive while the new runner starts, before it makes itself non-dumpable.
        if (sup) await killAll(this.container);
        return Supervisor.start(this.container, this.options.support.supervisor);
      })().catch((err: unknown) => {
        this.log?.warn({ err }, "sandbox command runner did not start; using docker exec per command");
        return undefined;
      });
    }
    return this.supervisor;
  }

  async exec(argv: string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (this.disposed) throw new Error("sandbox already disposed");
    if (argv.length === 0) throw new Error("exec needs a command");
    metrics.sandboxRuns.inc();
    const timeoutMs = timeLeft(this.deadline, options.timeoutMs ?? this.options.limits.timeoutMs);
    const cap = options.maxOutputBytes ?? this.options.limits.outputBytes;
    const cwd = this.resolve(options.cwd ?? ".");
    const sup = await this.runner();
    if (!sup) {
      return runExec(this.container, {
        argv,
        workingDir: cwd,
        env: options.env,
        stdin: options.stdin,
        timeoutMs,
        maxOutputBytes: cap,
      });
    }
    const started = performance.now();
    const killed = (timedOut: boolean, why: string): ExecResult => ({
      exitCode: null,
      stdout: "",
      stderr: `hypofix: ${why}\n`,
      timedOut,
      truncated: false,
      durationMs: performance.now() - started,
    });
    // Backstop for a runner that cannot act (e.g. pid limit exhausted): kill every
    // process of the sandbox user, and give up waiting shortly after.
    let timer: NodeJS.Timeout | undefined;
    const backstop = new Promise<ExecResult>((resolve) => {
      timer = setTimeout(() => {
        void killAll(this.container);
        timer = setTimeout(() => resolve(killed(true, "command killed past its timeout")), 2000);
      }, timeoutMs + BACKSTOP_GRACE_MS);
    });
    try {
      const run = sup.run({ argv, cwd, env: options.env ?? {}, stdin: options.stdin, timeoutMs, cap });
      return await Promise.race([run, backstop]);
    } catch (err) {
      if (!(err instanceof SupervisorGone)) throw err;
      return killed(performance.now() - started >= timeoutMs, err.message);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs an internal command that must succeed; returns its stdout. */
  private async check(argv: string[], what: string, stdin?: string): Promise<string> {
    const res = await this.exec(argv, { stdin, maxOutputBytes: INTERNAL_OUTPUT_BYTES });
    if (res.exitCode !== 0) {
      const why = res.timedOut ? "timed out" : res.stderr.trim() || `exit ${res.exitCode}`;
      throw new Error(`sandbox: ${what}: ${why}`);
    }
    return res.stdout;
  }

  readFile(p: string): Promise<string> {
    return this.check(["cat", "--", this.resolve(p)], `read ${p}`);
  }

  async writeFile(p: string, content: string): Promise<void> {
    const script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
    await this.check(["sh", "-c", script, "sh", this.resolve(p)], `write ${p}`, content);
  }

  async snapshot(): Promise<SnapshotId> {
    const id = `s${++this.snapshots}`;
    const script = 'mkdir -p -- "$2" && cp -a -- "$1/." "$2/"';
    await this.check(["sh", "-c", script, "sh", WORKDIR, `${SNAPSHOTS_DIR}/${id}`], "snapshot");
    return id;
  }

  async restore(id: SnapshotId): Promise<void> {
    if (!/^s\d+$/.test(id)) throw new Error(`unknown snapshot ${id}`);
    // A test may leave read-only directories behind; make them deletable first if needed.
    const script = [
      'test -d "$2" || { echo "unknown snapshot" >&2; exit 3; }',
      'find "$1" -mindepth 1 -delete 2>/dev/null || { chmod -R u+rwX "$1" && find "$1" -mindepth 1 -delete; }',
      'cp -a -- "$2/." "$1/"',
    ].join(" && ");
    await this.check(["sh", "-c", script, "sh", WORKDIR, `${SNAPSHOTS_DIR}/${id}`], `restore ${id}`);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    try {
      await this.container.remove({ force: true });
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404) throw err;
    }
  }

  /** The container id, for logs and tests. */
  get id(): string {
    return this.container.id;
  }
}
