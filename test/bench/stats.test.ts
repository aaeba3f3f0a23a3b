import { describe, expect, it } from "vitest";
import { mapLimit, mean, median, p95, percentile, summarize } from "../../bench/lib/stats.js";

describe("bench stats", () => {
  it("median of odd and even samples", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it("mean", () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
  });
  it("p95 by nearest rank is one of the samples", () => {
    const samples = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(p95(samples)).toBe(19);
    expect(percentile(samples, 100)).toBe(20);
    expect(percentile([7], 50)).toBe(7);
  });
  it("refuses an empty sample and a bad percentile", () => {
    expect(() => median([])).toThrow(/empty/);
    expect(() => mean([])).toThrow(/empty/);
    expect(() => percentile([1], 101)).toThrow(/outside/);
  });
  it("summarizes", () => {
    expect(summarize([5, 1, 3])).toEqual({ n: 3, min: 1, median: 3, mean: 3, p95: 5, max: 5 });
  });
  it("mapLimit keeps order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimit([30, 10, 20, 5, 1], 2, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i * 10;
    });
    expect(out).toEqual([0, 10, 20, 30, 40]);
    expect(peak).toBe(2);
  });
});
