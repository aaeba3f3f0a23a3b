import { Writable } from "node:stream";
import { TRUNCATION_MARK } from "./types.js";

/** The text of the first bytes kept of an output of `total` bytes, marked when it was cut. */
export function cappedText(kept: Buffer, total: number): string {
  const body = kept.toString("utf8");
  return total > kept.length ? body + TRUNCATION_MARK : body;
}

/**
 * Keeps the first `cap` bytes written to it and counts (but drops) the rest, so
 * a flooding process is drained at full speed and never stalls on back-pressure.
 */
export class CappedSink extends Writable {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly cap: number) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.total += chunk.length;
    const room = this.cap - this.kept;
    if (room > 0) {
      const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(piece);
      this.kept += piece.length;
    }
    callback();
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  /** The kept text, with TRUNCATION_MARK appended when output was cut. */
  text(): string {
    return cappedText(Buffer.concat(this.chunks, this.kept), this.total);
  }
}

/** Calls `onLine` for each complete newline-terminated line written to it (lines may be megabytes). */
export class LineSink extends Writable {
  private pending: Buffer[] = [];

  constructor(private readonly onLine: (line: string) => void) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      this.pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString("utf8");
      this.pending = [];
      this.onLine(line);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    callback();
  }
}
