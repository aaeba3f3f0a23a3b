import type { CoverageReport, FunctionInfo } from "../../lang/types.js";
import { codeSpan as q } from "../../text.js";
import type { FileChange } from "../types.js";
import { lineMap } from "./line-map.js";
import { measured, notMeasured, type PatchSignal } from "./types.js";

/** Places listed in the evidence, at most. */
const MAX_PLACES = 4;

/**
 * Code silenced: lines the tests that passed before the patch ran, and that the same tests no
 * longer run with it (the behaviour of the passing tests, before and after, as in Xiong et
 * al., ICSE 2018). A right fix changes what the failing tests do; a patch that switches a path
 * off (a fast path, a recursion, a branch) stops code the passing tests ran. Lines the patch
 * rewrote are not counted (they are the change itself), nor the failing tests' paths (meant to
 * change).
 */
export function codeSilenced(input: {
  before: CoverageReport;
  after: CoverageReport;
  failingTests: string[];
  changes: FileChange[];
}): PatchSignal {
  const { before, after, failingTests } = input;
  const passedBefore = Object.keys(before.perTest).filter(
    (id) => before.outcomes[id] === "passed" && !failingTests.includes(id),
  );
  const ranBefore = unionOf(before, passedBefore);
  const ranAfter = unionOf(after, passedBefore);
  const maps = new Map(
    input.changes
      .filter((c) => c.before !== null && c.after !== null)
      .map((c) => [c.path, lineMap(c.before!, c.after!)] as const),
  );
  const silenced: { file: string; line: number }[] = [];
  for (const [file, lines] of ranBefore) {
    const map = maps.get(file);
    for (const line of lines) {
      const now = map ? map(line) : line;
      if (now === undefined) continue;
      if (!ranAfter.get(file)?.has(now)) silenced.push({ file, line });
    }
  }
  const id = "code-silenced";
  if (passedBefore.length === 0) {
    return notMeasured(id, "no test passed before the patch, so there is no code it could silence");
  }
  if (silenced.length === 0) {
    return measured(
      id,
      false,
      "none",
      `the ${passedBefore.length} tests that passed before the patch still run every line they ran`,
    );
  }
  const places = groupByFunction(silenced, [...before.functions, ...after.functions]);
  const shown = places.slice(0, MAX_PLACES).map((p) => `${q(p.where)} ${p.lines}`);
  const more = places.length > MAX_PLACES ? `, and ${places.length - MAX_PLACES} more places` : "";
  return measured(
    id,
    true,
    `${silenced.length} line${silenced.length === 1 ? "" : "s"} no longer run`,
    `the passing tests ran these before the patch and no longer run them with it: ${shown.join("; ")}${more}`,
  );
}

function unionOf(report: CoverageReport, tests: string[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const id of tests) {
    for (const [file, lines] of Object.entries(report.perTest[id] ?? {})) {
      const set = out.get(file) ?? new Set<number>();
      for (const l of lines) set.add(l);
      out.set(file, set);
    }
  }
  return out;
}

/** `file::function` (or the file) with its line ranges, in file order. */
function groupByFunction(
  lines: { file: string; line: number }[],
  functions: FunctionInfo[],
): { where: string; lines: string }[] {
  const groups = new Map<string, number[]>();
  for (const { file, line } of lines.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    // The innermost function around the line: a method, not its class.
    const fn = functions
      .filter((f) => f.file === file && f.startLine <= line && line <= f.endLine)
      .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
    const where = fn ? `${file}::${fn.qualname}` : file;
    groups.set(where, [...(groups.get(where) ?? []), line]);
  }
  return [...groups].map(([where, ls]) => ({
    where,
    lines: `line${ls.length === 1 ? "" : "s"} ${ranges(ls)}`,
  }));
}

function ranges(lines: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    out.push(i === j ? `${lines[i]}` : `${lines[i]}–${lines[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}
