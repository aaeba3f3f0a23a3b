import { codeSpan as q } from "../../text.js";
import type { FileChange } from "../types.js";
import { rewrittenLines } from "./line-map.js";
import { measured, type PatchSignal } from "./types.js";

/** `if` / `elif` / `while` (Python) or `if (...)` / `while (...)` (C-like): the condition. */
const CONDITION = /^\s*(?:(?:el)?if|while)\b\s*\(?(.*?)\)?\s*[:{]?\s*$/;
const CONSTANT = /^(?:True|False|None|true|false|null|undefined|0|1|not\s+(?:True|False|None))$/;
const KEYWORDS = new Set(
  "and or not is in if elif else while None True False null undefined true false typeof instanceof len isinstance self this".split(
    " ",
  ),
);

/**
 * A condition that no longer depends on what it tested: a rewritten `if`/`while` whose new
 * condition is a constant, or whose subject was swapped for a name the guarded code never
 * uses, while the name it replaced is what that code works on. A right fix corrects how a
 * condition tests its subject (`<` for `<=`, another bound); swapping the subject, or making it
 * constant, switches the guarded code on or off for reasons unrelated to it.
 */
export function conditionSubject(changes: FileChange[]): PatchSignal {
  const id = "condition";
  const found: string[] = [];
  let rewritten = 0;
  for (const change of changes) {
    if (change.before === null || change.after === null) continue;
    for (const { old, now, nowIndex, lines } of rewrittenLines(change.before, change.after)) {
      const was = CONDITION.exec(old)?.[1]?.trim();
      const is = CONDITION.exec(now)?.[1]?.trim();
      if (!was || !is || !/^\s*(?:el)?if\b|^\s*while\b/.test(now)) continue;
      rewritten++;
      const where = `${change.path}:${nowIndex + 1}`;
      if (CONSTANT.test(is) || selfComparison(is)) {
        found.push(`${q(where)}: ${q(is)} is constant (it was ${q(was)})`);
        continue;
      }
      const before = names(was);
      const after = names(is);
      const gone = [...before].filter((n) => !after.has(n));
      const added = [...after].filter((n) => !before.has(n));
      if (gone.length === 0 || added.length === 0) continue;
      const guarded = names(guardedBlock(lines, nowIndex).join("\n"));
      const unrelated = added.filter((n) => !guarded.has(n));
      const subject = gone.filter((n) => guarded.has(n));
      if (unrelated.length === added.length && subject.length > 0) {
        found.push(
          `${q(where)}: tests ${unrelated.map((n) => q(n)).join(", ")} instead of ${subject.map((n) => q(n)).join(", ")}, which the guarded code uses and the new name is not`,
        );
      }
    }
  }
  if (rewritten === 0) {
    return measured(id, false, "no condition rewritten", "the patch rewrites no `if` or `while` condition");
  }
  if (found.length === 0) {
    return measured(
      id,
      false,
      `${rewritten} condition${rewritten === 1 ? "" : "s"} rewritten`,
      "each rewritten condition still tests names the code it guards works on",
    );
  }
  return measured(
    id,
    true,
    found.length === 1
      ? "1 condition no longer tests its subject"
      : `${found.length} conditions no longer test their subject`,
    found.join("; "),
  );
}

/** The lines a condition guards: the more indented lines after it (its block). */
function guardedBlock(lines: string[], index: number): string[] {
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const own = indent(lines[index]!);
  const block: string[] = [];
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    if (indent(line) <= own && !/^\s*}/.test(line)) break;
    block.push(line);
  }
  return block;
}

function names(code: string): Set<string> {
  const stripped = code.replace(/(["'])(?:\\.|(?!\1).)*\1/g, " ");
  return new Set(
    [...stripped.matchAll(/(?<![.\w])[A-Za-z_]\w*/g)].map((m) => m[0]).filter((n) => !KEYWORDS.has(n)),
  );
}

function selfComparison(condition: string): boolean {
  const m = /^(\w+)\s*(==|===|is|<=|>=)\s*(\w+)$/.exec(condition);
  return m !== null && m[1] === m[3];
}
