import { describe, expect, it } from "vitest";
import { applyEdits, parseExperiment } from "../../src/lang/python/experiment.js";
import {
  candidatesForLine,
  initialisationCandidates,
  renderEdits,
  scopeNames,
  type MutatorClass,
} from "../../src/debug/templates.js";

/** Each template is the inverse of a mutation: buggy line → the fixed line it must offer. */
const REVERSALS: [MutatorClass, string, string][] = [
  ["comparison", "    return amount < available", "    return amount <= available"],
  ["comparison", "    if year % 400 != 0:", "    if year % 400 == 0:"],
  ["comparison", "    if key not in seen:", "    if key in seen:"],
  ["arithmetic", "    total = price - tax", "    total = price + tax"],
  ["arithmetic", "    mid = (lo + hi) / 2", "    mid = (lo + hi) // 2"],
  ["arithmetic", "        total -= x", "        total += x"],
  ["off-by-one", "    for i in range(1, n):", "    for i in range(1, n + 1):"],
  ["off-by-one", "    return n + 1", "    return n"],
  ["off-by-one", "    count = 1", "    count = 0"],
  ["off-by-one", "    last = items[len(items)]", "    last = items[len(items) - 1]"],
  ["wrong-variable", "    return lo", "    return hi"],
  ["negated-condition", "    if not is_valid(x):", "    if is_valid(x):"],
  ["negated-condition", "    while lo <= hi:", "    while not (lo <= hi):"],
  ["negated-condition", "    if a and b:", "    if a or b:"],
  ["missing-return", "    a + b", "    return a + b"],
  ["swapped-arguments", "    return divide(total, count)", "    return divide(count, total)"],
  ["wrong-index", "    return xs[i]", "    return xs[i - 1]"],
  ["wrong-index", "    return xs[-1]", "    return xs[0]"],
  ["literal", "    return max(a, b)", "    return min(a, b)"],
  ["literal", "    found = True", "    found = False"],
  ["literal", "    return ' '.join(parts)", "    return ''.join(parts)"],
];

describe("candidatesForLine", () => {
  it.each(REVERSALS)("%s: offers the fix of %j", (mutator, buggy, fixed) => {
    const candidates = candidatesForLine({ line: 7, text: buggy, scope: ["lo", "hi", "mid", "total", "x"] });
    const results = candidates.map((c) => {
      const parsed = parseExperiment(renderEdits(c.edits));
      expect(parsed.ok).toBe(true);
      const edited = applyEdits(
        `# header\n${"\n".repeat(5)}${buggy}\n`,
        parsed.ok && parsed.experiment.kind === "edit" ? parsed.experiment.edits : [],
      );
      expect(edited.problems).toEqual([]);
      return { mutator: c.mutator, line: edited.source.split("\n")[6] };
    });
    expect(results).toContainEqual({ mutator, line: fixed });
  });

  it("orders the likeliest fixes first: a comparison flip before wrong variables", () => {
    const kinds = candidatesForLine({ line: 3, text: "    return a < b", scope: ["a", "b", "c"] }).map(
      (c) => c.mutator,
    );
    expect(kinds[0]).toBe("comparison");
    expect(kinds.indexOf("wrong-variable")).toBeGreaterThan(kinds.lastIndexOf("comparison") - 1);
  });

  it("widens an edit until its old text is unique on the line", () => {
    const [first] = candidatesForLine({ line: 1, text: "    if a < b and c < d:" });
    expect(first?.edits[0]).toMatchObject({ op: "REPLACE", old: "a < b", new: "a <= b" });
  });

  it("never offers an edit to a def, class or import line", () => {
    expect(candidatesForLine({ line: 1, text: "def f(a, b=1):" })).toEqual([]);
    expect(candidatesForLine({ line: 1, text: "import os" })).toEqual([]);
  });

  it("words each hypothesis with the code it changes", () => {
    const [first] = candidatesForLine({ line: 22, text: "        return amount < available" });
    expect(first?.claim).toBe(
      'the comparison at line 22 should test "at most", not "less than": `return amount < available` should be `return amount <= available`',
    );
  });
});

describe("scopeNames", () => {
  it("collects parameters, assignment and loop targets, not attributes or builtins", () => {
    expect(
      scopeNames(
        "def f(self, a, b=2, *rest):\n    for i, x in enumerate(a):\n        total = len(x)\n        self.y = 1\n",
      ),
    ).toEqual(["a", "b", "rest", "i", "x", "total"]);
  });
});

describe("initialisationCandidates", () => {
  it("initialises an unbound name above the body-level statement holding its first use, with the value its uses suggest", () => {
    const lines = [
      "    divisor = 2",
      "    while number > 1:",
      "        while number % divisor == 0:",
      "            factors.append(divisor)",
      "    return factors",
    ].map((text, i) => ({ line: 10 + i, text }));
    const [first, ...rest] = initialisationCandidates("factors", lines);
    expect(first).toMatchObject({ rank: 0, edits: [{ op: "ADD", line: 11, stmt: "factors = []" }] });
    expect(rest.map((c) => (c.edits[0]!.op === "ADD" ? c.edits[0]!.stmt : ""))).toEqual([
      "factors = {}",
      "factors = 0",
      "factors = ''",
    ]);
  });

  it("guesses a dict for subscript assignment and nothing for an unknown name", () => {
    const lines = [
      { line: 3, text: "    for w in words:" },
      { line: 4, text: "        table[w] = table.get(w, 0) + 1" },
    ];
    expect(initialisationCandidates("table", lines)[0]?.edits[0]).toMatchObject({
      line: 3,
      stmt: "table = {}",
    });
    expect(initialisationCandidates("missing", lines)).toEqual([]);
  });
});
