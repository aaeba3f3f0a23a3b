import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RepairCandidate } from "../../src/lang/types.js";
import { CandidateBench, dedent, lineOf, type LeaveAloneCase } from "./candidates-harness.js";

// What each family must leave alone, on correct code that invites the mistake
// (host Python, local sandbox). Every rule can fail: the module has candidates of every
// family nearby, only not of the forbidden kind.

const quiet = dedent(`
  """Totals and labels. Mentions total, count and limit."""
  from typing import List, Optional

  LABEL = "report"


  class Store:
      """Keeps items under a limit."""

      def __init__(self, items: List[str], limit: int = 10) -> None:
          self.items = items
          self.limit = limit

      def names(self) -> List[str]:
          return list(self.items)


  def total(values: List[int]) -> int:
      """Return the sum of values."""
      result = 0
      for v in values:
          result += v
      return result


  def label(name: str, prefix: Optional[str] = None) -> str:
      message = f"{LABEL}: {name}"
      return message


  def first(values, default=()):
      if not values:
          return default
      return values[0]


  def drain(queue):
      while True:
          item = queue.get()
          if item is None:
              break
          queue.task_done()


  def lookup(table, key):
      try:
          return table[key]
      except:
          return None


  def shout(text):
      out = text.upper()
      return out


  def pairs(items):
      result = []
      for item in items:
          result.append((item, item))
      return result


  def squares(n):
      for i in range(n):
          yield i * i
`);

const lines = quiet.split("\n");
const functionSpan = (name: string) => {
  const start = lineOf(quiet, `def ${name}(`);
  let end = start;
  while (end < lines.length && (lines[end]!.startsWith(" ") || lines[end]!.trim() === "")) end++;
  return { start, end };
};
const changed = (edited: string) => {
  const after = edited.split("\n");
  return { after, has: (text: string) => edited.includes(text) };
};

/** Per family: why a candidate on this module is wrong, or undefined. */
const rules: { what: string; check: (c: RepairCandidate, edited: string) => string | undefined }[] = [
  {
    what: "no candidate edits a docstring",
    check: (_c, edited) =>
      [
        '"""Totals and labels. Mentions total, count and limit."""',
        '"""Keeps items under a limit."""',
        '"""Return the sum of values."""',
      ].every((d) => edited.includes(d))
        ? undefined
        : "a docstring changed",
  },
  {
    what: "no candidate edits a type annotation (changed-identifier, changed-literal, mutable-default)",
    check: (_c, edited) => {
      const { has } = changed(edited);
      const kept = [
        "items: List[str], limit: int = ",
        "-> List[str]:",
        ") -> None:",
        ") -> str:",
        "values: List[int]) -> int:",
        "name: str, prefix: Optional[str] = ",
      ];
      return kept.every(has) ? undefined : "an annotation changed";
    },
  },
  {
    what: "f-strings: only the expressions in braces are edited, never the literal text",
    check: (_c, edited) =>
      /f"\{[^}"]*\}: \{[^}"]*\}"/.test(edited) ? undefined : "the f-string's text changed",
  },
  {
    what: "mutable-default only for mutable defaults (not None, 10 or ())",
    check: (c) => (c.family === "mutable-default" ? "a mutable-default on immutable defaults" : undefined),
  },
  {
    what: "wrong-exception leaves a bare except alone",
    check: (c) =>
      c.family === "wrong-exception" ? "a wrong-exception candidate for a bare except" : undefined,
  },
  {
    what: "negated-condition leaves `while True` alone",
    check: (c) =>
      c.family === "negated-condition" && c.features.before.includes("True")
        ? "negates while True"
        : undefined,
  },
  {
    what: "missing-reset leaves a plain accumulation alone",
    check: (c) => (c.family === "missing-reset" ? `a reset: ${c.claim}` : undefined),
  },
  {
    what: "missing-return leaves __init__, generators and functions that return alone",
    check: (c) =>
      c.family === "missing-return" && c.features.function !== "drain"
        ? `missing-return in ${c.features.function}`
        : undefined,
  },
  {
    what: "missing-guard never guards self or a module constant",
    check: (c) =>
      c.family === "missing-guard" && /\bself\b|LABEL/.test(c.features.after)
        ? `guards ${c.features.after}`
        : undefined,
  },
  {
    what: "extended-expression never adds a number to text",
    check: (c) =>
      c.family === "extended-expression" && /^(message|out|text|name)\b/.test(c.features.after)
        ? `extends text: ${c.features.after}`
        : undefined,
  },
  {
    what: "changed-identifier never swaps in a type, a module or a name bound later",
    check: (c) =>
      c.family === "changed-identifier" &&
      c.features.names.some((n) => ["List", "Optional", "Store"].includes(n))
        ? `swaps ${c.features.names.join(" / ")}`
        : undefined,
  },
  {
    what: "changed-attribute never reads a method as a value",
    check: (c) =>
      c.family === "changed-attribute" && /self\.(names|__init__)\b/.test(c.features.after)
        ? c.claim
        : undefined,
  },
  {
    what: "missing-append leaves an unconditional append alone",
    check: (c) => (c.family === "missing-append" ? c.claim : undefined),
  },
  {
    what: "missing-copy never copies a fresh local or a number",
    check: (c) => (c.family === "missing-copy" ? c.claim : undefined),
  },
  {
    what: "missing-init never initialises a parameter, a module name, a builtin or a bound local",
    check: (c) => (c.family === "missing-init" ? c.claim : undefined),
  },
  {
    what: "missing-condition never adds to `while True` nor guards self",
    check: (c) =>
      c.family === "missing-condition" && /True|self/.test(c.features.after) ? c.claim : undefined,
  },
  {
    what: "discarded-result leaves mutating calls alone",
    check: (c) => (c.family === "discarded-result" ? c.claim : undefined),
  },
];

const wholeFile: LeaveAloneCase = {
  name: "quiet",
  source: quiet,
  span: { start: 1, end: lines.length },
  forbidden: (c, edited) => {
    const broken = rules.map((r) => r.check(c, edited)).filter((x) => x !== undefined);
    return broken.length ? `${c.family} at line ${c.line}: ${broken.join("; ")}` : undefined;
  },
};

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", [], [wholeFile]);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("what repair candidates leave alone", () => {
  it("breaks none of the families' rules on a correct module, while proposing plenty elsewhere in it", async () => {
    const all = await bench.expectLeftAlone(wholeFile);
    const families = new Set<string>(all.map((c) => c.family));
    for (const f of [
      "changed-identifier",
      "changed-literal",
      "changed-operator",
      "off-by-one",
      "missing-guard",
      "missing-return",
    ] as const)
      expect(families, f).toContain(f);
    await bench.expectAllParse(quiet, all);
  });

  it("keeps expression edits on the suspect statement and function edits inside its function", async () => {
    const span = functionSpan("first");
    const suspect = lineOf(quiet, "return values[0]");
    const got = await bench.candidates("quiet", { lines: [suspect] });
    expect(got.length).toBeGreaterThan(3);
    for (const c of got) {
      expect(c.suspect).toBe(suspect);
      for (const e of c.edits) {
        expect(e.line, c.claim).toBeGreaterThanOrEqual(span.start);
        expect(e.line, c.claim).toBeLessThanOrEqual(span.end);
      }
      // An occurrence-wide swap changes every read of the name in the function, by design.
      if (c.features.statement === "Return" && !c.claim.includes("at every read of"))
        expect(
          c.edits.every((e) => e.line === suspect),
          c.claim,
        ).toBe(true);
    }
  });

  it("orders each suspect line's candidates likeliest first and keeps at most the budget", async () => {
    const suspects = [lineOf(quiet, "result += v"), lineOf(quiet, "return values[0]")];
    const got = await bench.candidates("quiet", { lines: suspects, budget: 4 });
    expect(got.map((c) => c.suspect)).toEqual(
      [...got.map((c) => c.suspect)].sort((a, b) => suspects.indexOf(a) - suspects.indexOf(b)),
    );
    for (const s of suspects) {
      const mine = got.filter((c) => c.suspect === s);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThanOrEqual(4);
      expect(mine.map((c) => c.prior)).toEqual([...mine.map((c) => c.prior)].sort((a, b) => a - b));
    }
  });
});
