import type { Frame } from "./types.js";

/** A frame as the helper reports it: `repo` is false for library and interpreter frames. */
export interface RawFrame extends Frame {
  repo: boolean;
}

const MAX_PERIOD = 8;
const KEEP_RUNS = 5;

const same = (a: Frame, b: Frame) => a.file === b.file && a.line === b.line && a.function === b.function;

/**
 * AutoFL's stack minimisation: only the repository's own frames, and a run of
 * the same frame sequence repeated more than 5 times (recursion) kept once,
 * with `repeated` on its last frame saying how many more times it occurred.
 */
export function minimizeFrames(frames: RawFrame[]): Frame[] {
  const repo: Frame[] = frames
    .filter((f) => f.repo)
    .map(({ repo: _repo, ...frame }) =>
      frame.code ? frame : { file: frame.file, line: frame.line, function: frame.function },
    );
  const out: Frame[] = [];
  let i = 0;
  while (i < repo.length) {
    let collapsed = false;
    for (let period = 1; period <= MAX_PERIOD && i + period * (KEEP_RUNS + 1) <= repo.length; period++) {
      let runs = 1;
      while (
        i + (runs + 1) * period <= repo.length &&
        Array.from({ length: period }, (_, k) => k).every((k) =>
          same(repo[i + k]!, repo[i + runs * period + k]!),
        )
      ) {
        runs++;
      }
      if (runs > KEEP_RUNS) {
        const pattern = repo.slice(i, i + period).map((f) => ({ ...f }));
        const last = pattern[period - 1]!;
        last.repeated = runs - 1;
        if (period > 1) last.period = period;
        out.push(...pattern);
        i += runs * period;
        collapsed = true;
        break;
      }
    }
    if (!collapsed) out.push(repo[i++]!);
  }
  return out;
}

/** The frames as text, innermost last, for prompts and reports. */
export function formatFrames(frames: Frame[]): string {
  const lines: string[] = [];
  for (const f of frames) {
    lines.push(`  ${f.file}:${f.line} in ${f.function}`);
    if (f.code) lines.push(`    ${f.code}`);
    if (f.repeated) {
      const what = f.period && f.period > 1 ? `the ${f.period} frames above` : "the frame above";
      lines.push(`  [${what} repeated ${f.repeated} more times]`);
    }
  }
  return lines.join("\n");
}
