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
    this.add(chunk);
    callback();
  }

  /** Counts `chunk` and keeps what fits under the cap. */
  add(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.cap - this.kept;
    if (room > 0) {
      const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(piece);
      this.kept += piece.length;
    }
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  /** The bytes kept, at most the cap. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  /** The kept text, with TRUNCATION_MARK appended when output was cut. */
  text(): string {
    return cappedText(this.bytes(), this.total);
  }
}

/**
 * Calls `onLine` for each complete newline-terminated line written to it. A line
 * longer than `maxBytes` is never buffered whole: `onOverflow` is called once and
 * the rest of that line is dropped up to its newline, so a writer that never sends
 * one costs at most `maxBytes` of memory.
 */
export class LineSink extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxBytes: number,
    private readonly onOverflow: () => void,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      if (!this.dropping && this.fits(nl - start)) {
        this.pending.push(chunk.subarray(start, nl));
        const line = Buffer.concat(this.pending).toString("utf8");
        this.onLine(line);
      }
      this.reset();
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length && !this.dropping && this.fits(chunk.length - start)) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
    callback();
  }

  /** False (and the line is dropped) when `more` bytes would take the line past the cap. */
  private fits(more: number): boolean {
    if (this.pendingBytes + more <= this.maxBytes) return true;
    this.pending = [];
    this.pendingBytes = 0;
    this.dropping = true;
    this.onOverflow();
    return false;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.dropping = false;
  }
}
