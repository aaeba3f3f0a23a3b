import { readFileSync } from "node:fs";
import type Docker from "dockerode";
import { supervisorSource } from "./helpers.js";
import { CappedSink, cappedText, LineSink } from "./output.js";
import type { ExecResult } from "./types.js";

/** What the in-container runner is asked to do (see supervisor.py for the protocol). */
export interface RunRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  cap: number;
}

interface RunReply {
  id: number;
  exit: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  spawnError: string | null;
}

/** The runner died (killed by a command, or the container went away) before replying. */
export class SupervisorGone extends Error {
  constructor(detail: string) {
    super(`sandbox command runner stopped: ${detail}`);
    this.name = "SupervisorGone";
  }
}

const READY_TIMEOUT_MS = 30_000;

/**
 * One long-lived `docker exec` of supervisor.py that spawns each command
 * inside the container, so a command costs a fork, not a runc exec.
 */
export class Supervisor {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (r: RunReply) => void; reject: (e: Error) => void }
  >();
  private gone: Error | undefined;
  private readonly stderr = new CappedSink(16 * 1024);

  private constructor(private readonly stream: NodeJS.ReadWriteStream) {}

  get alive(): boolean {
    return this.gone === undefined;
  }

  static async start(container: Docker.Container): Promise<Supervisor> {
    const script = readFileSync(supervisorSource(), "utf8");
    const exec = await container.exec({
      Cmd: ["python3", "-u", "-c", script],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      WorkingDir: "/",
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as NodeJS.ReadWriteStream;
    const sup = new Supervisor(stream);
    let onReady: (() => void) | undefined;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    container.modem.demuxStream(
      stream,
      new LineSink((line) => sup.onLine(line, () => onReady?.())),
      sup.stderr,
    );
    const stop = (why: string) =>
      sup.stop(new SupervisorGone(why + (sup.stderr.text() ? `: ${sup.stderr.text()}` : "")));
    stream.on("end", () => stop("stream ended"));
    stream.on("close", () => stop("stream closed"));
    stream.on("error", (err: Error) => stop(err.message));

    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SupervisorGone("not ready in time")), READY_TIMEOUT_MS);
      sup.onStop = reject;
    });
    try {
      await Promise.race([ready, failed]);
    } finally {
      clearTimeout(timer);
      sup.onStop = undefined;
    }
    return sup;
  }

  private onStop: ((err: Error) => void) | undefined;

  private onLine(line: string, ready: () => void): void {
    let msg: Partial<RunReply> & { ready?: boolean };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      this.stop(new SupervisorGone(`unreadable reply: ${line.slice(0, 200)}`));
      return;
    }
    if (msg.ready) return ready();
    const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id as number);
    waiter.resolve(msg as RunReply);
  }

  private stop(err: Error): void {
    if (this.gone) return;
    this.gone = err;
    this.onStop?.(err);
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  /** Runs one command; rejects with SupervisorGone if the runner dies first. */
  async run(req: RunRequest): Promise<ExecResult> {
    if (this.gone) throw this.gone;
    const started = performance.now();
    const id = this.nextId++;
    const reply = new Promise<RunReply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.stream.write(
      JSON.stringify({
        id,
        argv: req.argv,
        cwd: req.cwd,
        env: req.env,
        stdin: req.stdin === undefined ? null : Buffer.from(req.stdin).toString("base64"),
        timeout: req.timeoutMs / 1000,
        cap: req.cap,
      }) + "\n",
    );
    const r = await reply;
    const stdout = Buffer.from(r.stdout, "base64");
    const stderr = Buffer.from(r.stderr, "base64");
    return {
      exitCode: r.exit,
      stdout: cappedText(stdout, r.stdoutBytes),
      stderr: cappedText(stderr, r.stderrBytes) + (r.spawnError ? `${r.spawnError}\n` : ""),
      timedOut: r.timedOut,
      truncated: r.stdoutBytes > stdout.length || r.stderrBytes > stderr.length,
      durationMs: performance.now() - started,
    };
  }

  /** Closes the runner's stdin; it exits once running commands finish. */
  close(): void {
    this.stream.end();
  }
}
