import { Writable } from "node:stream";
import { TRUNCATION_MARK } from "./types.js";

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
    const body = Buffer.concat(this.chunks, this.kept).toString("utf8");
    return this.truncated ? body + TRUNCATION_MARK : body;
  }
}
