import { describe, expect, it } from "vitest";
import { conditionSubject } from "../../src/audit/signals/index.js";
import { rankCandidates } from "../../src/pipeline/rank.js";
import type { Signal } from "../../src/result.js";

const change = (before: string, after: string) => [{ path: "search.py", before, after }];

// A binary search's bound test; the wrong patches make it constant or test an unrelated name.
const SEARCH = [
  "def search(items, target, lo, hi, depth=0):",
  "    if lo > hi:",
  "        return -1",
  "    mid = (lo + hi) // 2",
  "    if items[mid] == target:",
  "        return mid",
  "    if items[mid] < target:",
  "        return search(items, target, mid + 1, hi)",
  "    return search(items, target, lo, mid - 1)",
  "",
].join("\n");

describe("a condition that no longer depends on what it tested (the patch's text)", () => {
  it("stays clear for a right fix of the comparison", () => {
    const right = SEARCH.replace("    if lo > hi:", "    if lo >= hi + 1:");
    expect(conditionSubject(change(SEARCH, right))).toMatchObject({
      measured: true,
      tripped: false,
      value: "1 condition rewritten",
    });
    const bound = SEARCH.replace("    if items[mid] < target:", "    if items[mid] <= target:");
    expect(conditionSubject(change(SEARCH, bound)).tripped).toBe(false);
  });

  it("stays clear when the patch rewrites no condition", () => {
    const other = SEARCH.replace("mid + 1, hi)", "mid + 1, hi, depth + 1)");
    expect(conditionSubject(change(SEARCH, other))).toMatchObject({
      tripped: false,
      value: "no condition rewritten",
    });
  });

  it("trips on a condition made constant, naming it", () => {
    const constant = SEARCH.replace("    if items[mid] < target:", "    if True:");
    const signal = conditionSubject(change(SEARCH, constant));
    expect(signal).toMatchObject({ tripped: true, value: "1 condition no longer tests its subject" });
    expect(signal.evidence).toBe("`search.py:7`: `True` is constant (it was `items[mid] < target`)");
  });

  it("trips on a subject swapped for a name the guarded code does not use", () => {
    const total = [
      'def total(prices, discount=None, currency="EUR"):',
      "    if discount is not None:",
      "        return round(sum(prices) * (1 - discount), 2)",
      "    return sum(prices)",
      "",
    ].join("\n");
    const swapped = total.replace("    if discount is not None:", "    if currency is not None:");
    const signal = conditionSubject([{ path: "cart.py", before: total, after: swapped }]);
    expect(signal.tripped).toBe(true);
    expect(signal.evidence).toBe(
      "`cart.py:2`: tests `currency` instead of `discount`, which the guarded code uses and the new name is not",
    );
    // The right fix of the same line keeps its subject.
    const right = total.replace("    if discount is not None:", "    if discount:");
    expect(conditionSubject([{ path: "cart.py", before: total, after: right }]).tripped).toBe(false);
  });
});

const signal = (tripped: boolean): Signal => ({
  id: "code-silenced",
  name: "no code silenced",
  measured: true,
  tripped,
  value: tripped ? "2 lines no longer run" : "none",
  evidence: "",
});

describe("ranking validated candidates by their signals", () => {
  it("never lets a candidate that trips a signal beat one that does not", () => {
    expect(
      rankCandidates([
        { item: "first", signals: [signal(true)] },
        { item: "second", signals: [signal(false)] },
      ]),
    ).toBe("second");
  });

  it("keeps the engine's order among equals", () => {
    expect(
      rankCandidates([
        { item: "first", signals: [signal(false)] },
        { item: "second", signals: [signal(false)] },
      ]),
    ).toBe("first");
    expect(
      rankCandidates([
        { item: "first", signals: [signal(true)] },
        { item: "second", signals: [signal(true)] },
      ]),
    ).toBe("first");
    expect(rankCandidates([])).toBeUndefined();
  });
});
