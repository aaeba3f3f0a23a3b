import { describe, expect, it } from "vitest";
import { decisiveObservation, type ObservedTest } from "../../src/audit/signals/index.js";
import { rankCandidates } from "../../src/pipeline/rank.js";
import type { Signal } from "../../src/result.js";

const line = { file: "m.py", before: 3, after: 3, condition: true };
const probe = (expr: string, values: string[]) => ({
  file: "m.py",
  line: 3,
  expr,
  computed: true,
  values: values.map((value) => ({ value })),
  total: values.length,
});
const run = (
  test: string,
  failing: boolean,
  base: string[],
  patched: string[],
  expr = "x >= lo",
): ObservedTest => ({
  test,
  failing,
  base: [probe("x > lo", base)],
  patched: [probe(expr, patched)],
});

describe("the decisive observation (what the fixed line computes in the failing test)", () => {
  it("is clear when the failing test's value changes and its passing instances' do not", () => {
    const signal = decisiveObservation({
      lines: [line],
      tests: [
        run("t.py::test[a]", true, ["False"], ["True"]),
        run("t.py::test[b]", false, ["True"], ["True"]),
      ],
    });
    expect(signal).toMatchObject({ measured: true, tripped: false, value: "changes at the fixed line" });
    expect(signal.evidence).toContain("`m.py:3` computes `True` where it computed `False`");
  });

  it("trips when the failing test passes while the line computes what it did, or no longer runs it", () => {
    const same = decisiveObservation({ lines: [line], tests: [run("t.py::test", true, ["True"], ["True"])] });
    expect(same).toMatchObject({ tripped: true });
    expect(same.evidence).toContain("every rewritten line computes there what it computed before");
    const gone = decisiveObservation({ lines: [line], tests: [run("t.py::test", true, ["True"], [])] });
    expect(gone.evidence).toContain("`t.py::test` no longer reaches `m.py:3`, where it failed");
  });

  it("trips when a condition that varied during the failing test is constant with the patch", () => {
    const signal = decisiveObservation({
      lines: [line],
      tests: [run("t.py::test", true, ["True", "False", "True"], ["False", "False", "False"])],
    });
    expect(signal.tripped).toBe(true);
    expect(signal.evidence).toContain("is `False` at each of its 3 checks, where it varied");
  });

  it("trips when the value changes for an instance that passed before (the same test's intent)", () => {
    const signal = decisiveObservation({
      lines: [line],
      tests: [
        run("t.py::test[a]", true, ["False"], ["True"]),
        run("t.py::test[b]", false, ["True"], ["False"]),
      ],
    });
    expect(signal.tripped).toBe(true);
    expect(signal.evidence).toContain("in `t.py::test[b]`, which passed before, `m.py:3` computes `False`");
  });

  it("is not measured when the line computes no value it was seen computing (names read only, or never reached)", () => {
    const names = run("t.py::test", true, ["1"], ["2"]);
    names.base![0]!.computed = false;
    expect(decisiveObservation({ lines: [line], tests: [names] }).measured).toBe(false);
    expect(
      decisiveObservation({ lines: [line], tests: [run("t.py::test", true, [], ["True"])] }).measured,
    ).toBe(false);
  });

  it("a candidate that trips it is never ranked above one that does not", () => {
    const tripped = decisiveObservation({
      lines: [line],
      tests: [run("t.py::test", true, ["True"], ["True"])],
    });
    const clear = decisiveObservation({
      lines: [line],
      tests: [run("t.py::test", true, ["False"], ["True"])],
    });
    const pick = (a: Signal, b: Signal) =>
      rankCandidates([
        { item: "first", signals: [a] },
        { item: "second", signals: [b] },
      ]);
    expect(pick(tripped, clear)).toBe("second");
    expect(pick(clear, tripped)).toBe("first");
  });
});
