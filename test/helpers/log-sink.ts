import { Writable } from "node:stream";

/** A stream for a real pino logger to write to, and the lines it received. */
export function logSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink };
}
