import type { Duplex } from "node:stream";
import type Docker from "dockerode";
import { z } from "zod";
import { channelKey, MAX_LINE_BYTES, openMessage } from "./channel.js";
import { CappedSink, cappedText, LineSink } from "./output.js";
import type { ExecResult } from "./types.js";

/*
 * The command runner's protocol, defined here once; each language's runner implements it
 * (Python's: lang/python/supervisor.py), started as the language's `SandboxSupport.supervisor`.
 *
 * - The host starts the runner with one `docker exec` (stdin attached) and writes a
 *   per-runner key (64 hex digits) and a newline first; argv and the environment would be
 *   readable from /proc, stdin is not.
 * - The runner refuses to run as root or outside a container (its idle sweep is kill(-1)),
 *   makes itself not dumpable, reads the key and sends `{"ready": true}`.
 * - Then each request is one JSON line on stdin:
 *   `{"id", "argv", "cwd", "env", "stdin" (base64 or null), "timeout" (s), "cap" (bytes)}`;
 *   several may run at once. The runner spawns argv (no shell) in a session of its own with
 *   its own environment plus `env`, kills that group at the timeout (exit null, timedOut true)
 *   or when the command ends, and, once no command runs, every process that escaped.
 * - Every line the runner writes is `<hmac-sha256 hex of body under the key> <body>`
 *   (channel.ts), at most MAX_LINE_BYTES long. When a command ends: its data messages
 *   `{"id", "stream": "stdout" | "stderr", "data" (base64 of at most 48 KiB)}`, in order, for
 *   the first `cap` bytes of each stream, then one reply `{"id", "exit" (int, or null when
 *   killed), "timedOut", "stdoutBytes", "stderrBytes" (totals), "spawnError" (text or null)}`;
 *   a command that cannot start gets exit 127 (no such program) or 126.
 * - When stdin closes, the runner exits once the running commands finish.
 * A line without a valid MAC, or one over the cap, makes the host hang up on the runner.
 */

/** What the in-container runner is asked to do. */
export interface RunRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  cap: number;
}

const messageSchema = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ id: z.number().int(), stream: z.enum(["stdout", "stderr"]), data: z.string() }),
  z.object({
    id: z.number().int(),
    exit: z.number().int().nullable(),
    timedOut: z.boolean(),
    stdoutBytes: z.number().int().nonnegative(),
    stderrBytes: z.number().int().nonnegative(),
    spawnError: z.string().nullable(),
  }),
]);
type Reply = Extract<z.infer<typeof messageSchema>, { exit: unknown }>;

interface Waiter {
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
  stdout: CappedSink;
  stderr: CappedSink;
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
 * One long-lived `docker exec` of the language's runner that spawns each command
 * inside the container, so a command costs a fork, not a runc exec. Only
 * lines carrying the runner's MAC are believed; anything else (a forged or cut
 * line, a line over MAX_LINE_BYTES) stops the runner and fails its commands.
 */
export class Supervisor {
  private nextId = 1;
  private readonly pending = new Map<number, Waiter>();
  private gone: Error | undefined;
  private readonly stderr = new CappedSink(16 * 1024);

  private constructor(
    private readonly stream: Duplex,
    private readonly key: Buffer,
  ) {}

  get alive(): boolean {
    return this.gone === undefined;
  }

  /** Starts the runner `program` (argv: the language's, or in the flood test a hostile one). */
  static async start(container: Docker.Container, program: string[]): Promise<Supervisor> {
    const exec = await container.exec({
      Cmd: program,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      WorkingDir: "/",
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
    const key = channelKey();
    const sup = new Supervisor(stream, key);
    stream.write(`${key.toString("hex")}\n`);
    let onReady: (() => void) | undefined;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    const lines = new LineSink(
      (line) => sup.onLine(line, () => onReady?.()),
      MAX_LINE_BYTES,
      () => sup.stop(new SupervisorGone(`the runner sent a line over ${MAX_LINE_BYTES} bytes`)),
    );
    container.modem.demuxStream(stream, lines, sup.stderr);
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
    const parsed = messageSchema.safeParse(openMessage(this.key, line));
    if (!parsed.success) {
      this.stop(new SupervisorGone("a reply failed the channel's authentication (forged or cut)"));
      return;
    }
    const msg = parsed.data;
    if ("ready" in msg) return ready();
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    if ("stream" in msg) {
      waiter[msg.stream].add(Buffer.from(msg.data, "base64"));
      return;
    }
    this.pending.delete(msg.id);
    waiter.resolve(msg);
  }

  private stop(err: Error): void {
    if (this.gone) return;
    this.gone = err;
    // Hang up: a runner that breaks the protocol gets no more of our memory or time.
    this.stream.destroy();
    this.onStop?.(err);
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  /** Runs one command; rejects with SupervisorGone if the runner dies first. */
  async run(req: RunRequest): Promise<ExecResult> {
    if (this.gone) throw this.gone;
    const started = performance.now();
    const id = this.nextId++;
    const stdout = new CappedSink(req.cap);
    const stderr = new CappedSink(req.cap);
    const reply = new Promise<Reply>((resolve, reject) =>
      this.pending.set(id, { resolve, reject, stdout, stderr }),
    );
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
    const out = stdout.bytes();
    const err = stderr.bytes();
    return {
      exitCode: r.exit,
      stdout: cappedText(out, r.stdoutBytes),
      stderr: cappedText(err, r.stderrBytes) + (r.spawnError ? `${r.spawnError}\n` : ""),
      timedOut: r.timedOut,
      truncated: r.stdoutBytes > out.length || r.stderrBytes > err.length,
      durationMs: performance.now() - started,
    };
  }

  /** Closes the runner's stdin; it exits once running commands finish. */
  close(): void {
    this.stream.end();
  }
}
