import { describe, expect, it } from "vitest";
import { minimalPreceding, precedingDefaults } from "../../src/pipeline/order.js";

const tests = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

/** A predicate that fails when every test of `needed` ran before, counting its calls. */
function pollutedBy(needed: string[]) {
  const calls: string[][] = [];
  const fails = async (before: string[]) => {
    calls.push(before);
    return needed.every((t) => before.includes(t));
  };
  return { fails, calls };
}

describe("minimalPreceding (delta debugging over the tests that ran before)", () => {
  it("finds one polluter among 700 tests in about 2·log2(n) runs", async () => {
    const { fails, calls } = pollutedBy(["t513"]);
    expect(await minimalPreceding(tests(700), fails)).toEqual(["t513"]);
    expect(calls.length).toBeLessThanOrEqual(12);
  });

  it("keeps two tests that are needed together, in their order", async () => {
    const { fails } = pollutedBy(["t3", "t41"]);
    expect(await minimalPreceding(tests(60), fails)).toEqual(["t3", "t41"]);
  });

  it("keeps every test when each one is needed", async () => {
    const { fails } = pollutedBy(["t0", "t1", "t2"]);
    expect(await minimalPreceding(tests(3), fails)).toEqual(["t0", "t1", "t2"]);
  });

  it("stops at its run budget with the smallest set found so far, which still fails", async () => {
    const { fails, calls } = pollutedBy(["t100"]);
    const found = await minimalPreceding(tests(700), fails, 3);
    expect(calls.length).toBe(3);
    expect(found).toContain("t100");
    expect(found.length).toBeLessThan(700);
  });
});

describe("precedingDefaults", () => {
  const defaults = precedingDefaults([{ test: "victim", precededBy: ["polluter"], reruns: 3 }], (t) =>
    t === "polluter" ? 500 : 10,
  );

  it("runs the polluter first for a run of the victim, with its time on top of the limit", () => {
    expect(defaults(["victim"], { timeoutMs: 2_000 })).toEqual({ timeoutMs: 3_000, before: ["polluter"] });
  });

  it("leaves the suite, other tests, a run that has the polluter and a caller's own `before` alone", () => {
    expect(defaults(undefined, { timeoutMs: 2_000 })).toEqual({ timeoutMs: 2_000 });
    expect(defaults(["other"], {})).toEqual({});
    expect(defaults(["polluter", "victim"], {})).toEqual({});
    expect(defaults(["victim"], { before: [] })).toEqual({ before: [] });
  });
});
