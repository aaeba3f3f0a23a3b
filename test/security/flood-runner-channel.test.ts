// Hostile case (issue 12, point 6): a 300 MiB line with no newline grew the worker from
// 106 to 1362 MiB, because the runner channel buffered any line length. The worker's side
// runs in a child process here, so its peak RSS is its own, read from /proc.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { MAX_LINE_BYTES } from "../../src/sandbox/channel.js";
import { TRUNCATION_MARK } from "../../src/sandbox/types.js";
import { testOptions } from "../sandbox/limits.js";

const child = fileURLToPath(new URL("./flood-child.ts", import.meta.url));
const MIB = 1024 * 1024;
/** What the floods may add to the worker's memory: the output cap and the line cap, with room for the GC. */
const HEADROOM = 64 * MIB;

it("keeps the worker's memory flat under three 300 MiB floods without a newline", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child], {
    maxBuffer: MIB,
    timeout: 180_000,
  });
  const r = JSON.parse(stdout) as {
    printed: { exitCode: number; length: number; truncated: boolean };
    injected: { exitCode: number; stderr: string };
    rogueStart: string;
    after: string;
    rssBefore: number;
    peak: number;
  };
  const cap = testOptions(".").limits.outputBytes;
  expect(r.printed).toEqual({ exitCode: 0, length: cap + TRUNCATION_MARK.length, truncated: true });
  expect(r.injected.exitCode).toBe(1);
  expect(r.injected.stderr).toContain("PermissionError");
  expect(r.rogueStart).toContain(`the runner sent a line over ${MAX_LINE_BYTES} bytes`);
  expect(r.after).toBe("still here\n");
  expect(r.peak - r.rssBefore).toBeLessThan(HEADROOM);
});
