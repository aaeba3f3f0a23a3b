import { describe, expect, it } from "vitest";
import { aggregateRuns, orderUnnamed, runAgreement } from "../../src/localize/autofl-score.js";

describe("aggregateRuns", () => {
  it("reproduces the paper's worked example", () => {
    const runs = [["m1", "m2"], ["m2"], ["m2", "m3"], ["m3"], ["m2", "m4"]];
    const ranked = aggregateRuns(runs);
    expect(ranked.map((r) => r.key)).toEqual(["m2", "m3", "m1", "m4"]);
    expect(ranked.map((r) => r.score)).toEqual([2.5, 1.5, 0.5, 0.5]);
    expect(ranked.map((r) => r.votes)).toEqual([4, 2, 1, 1]);
  });

  it("breaks ties by the earlier prediction, within a run too", () => {
    expect(
      aggregateRuns([
        ["b", "a"],
        ["a", "b"],
      ]).map((r) => r.key),
    ).toEqual(["b", "a"]);
  });

  it("lets an empty run contribute nothing and counts a repeated name once", () => {
    expect(aggregateRuns([[], ["x", "x", "y"]])).toEqual([
      { key: "x", score: 0.5, votes: 1 },
      { key: "y", score: 0.5, votes: 1 },
    ]);
  });
});

describe("orderUnnamed", () => {
  it("orders by failing tests covering, then how often looked at, then input order", () => {
    const order = orderUnnamed(new Set(["named"]), [
      { key: "c", failingTests: 1, lookedAt: 0 },
      { key: "named", failingTests: 3, lookedAt: 9 },
      { key: "a", failingTests: 2, lookedAt: 0 },
      { key: "b", failingTests: 2, lookedAt: 4 },
      { key: "d", failingTests: 1, lookedAt: 0 },
    ]);
    expect(order.map((c) => c.key)).toEqual(["b", "a", "c", "d"]);
  });
});

describe("runAgreement", () => {
  it("is the share of attempted runs whose first answer is the top function", () => {
    const runs = [["m1", "m2"], ["m2"], ["m2", "m3"], ["m3"], ["m2", "m4"]];
    // m2 is named in four runs but first in three: a run naming it second does not agree.
    expect(runAgreement(runs, 5, "m2")).toBe(0.6);
    expect(runAgreement([["a"], ["a"]], 5, "a")).toBe(0.4);
    expect(runAgreement([], 0, undefined)).toBe(0);
  });
});
