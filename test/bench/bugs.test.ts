import { beforeAll, describe, expect, it } from "vitest";
import { loadSelection, loadV1, loadV2, selectBugs, type BenchBug } from "../../bench/lib/bugs.js";

let all: BenchBug[];
beforeAll(async () => {
  all = [...(await loadV1()), ...(await loadV2())];
});

const groupsOf = (bugs: BenchBug[]) => [...new Set(bugs.map((b) => b.group))];

describe("selectBugs", () => {
  it("the headline selection is all of v1 and v2's test half, never dev", () => {
    const chosen = selectBugs(all, { corpus: "all", split: "test", subset: "full" });
    expect(groupsOf(chosen)).toEqual(["v1", "v2 test"]);
    expect(chosen.filter((b) => b.group === "v1")).toHaveLength(all.filter((b) => b.corpus === "v1").length);
    expect(chosen.filter((b) => b.group === "v2 test").length).toBeGreaterThan(0);
  });

  it("--split dev picks v2's dev half only; --corpus narrows to one corpus", () => {
    expect(groupsOf(selectBugs(all, { corpus: "v2", split: "dev", subset: "full" }))).toEqual(["v2 dev"]);
    expect(groupsOf(selectBugs(all, { corpus: "v1", split: "dev", subset: "full" }))).toEqual(["v1"]);
    expect(groupsOf(selectBugs(all, { corpus: "v2", split: "all", subset: "full" }))).toEqual([
      "v2 test",
      "v2 dev",
    ]);
  });

  it("quick keeps v1's quick slice and one bug per v2 program", () => {
    const quick = selectBugs(all, { corpus: "all", split: "all", subset: "quick" });
    expect(quick.filter((b) => b.corpus === "v1").every((b) => b.quick)).toBe(true);
    const programs = new Set(all.filter((b) => b.corpus === "v2").map((b) => b.id.replace(/-\d+$/, "")));
    expect(quick.filter((b) => b.corpus === "v2")).toHaveLength(programs.size);
    expect(quick.length).toBeLessThan(all.length);
  });

  it("--bug picks exactly those bugs, whatever the subset", () => {
    const ids = ["roman-compare-1", "csvimport-2"];
    const chosen = selectBugs(all, { corpus: "all", split: "all", subset: "quick", ids });
    expect(chosen.map((b) => b.id)).toEqual(ids);
  });

  it("--bug outside the chosen corpus or split, or unknown, is an error rather than an empty run", () => {
    expect(() =>
      selectBugs(all, { corpus: "all", split: "test", subset: "full", ids: ["csvimport-2"] }),
    ).toThrow(/csvimport-2 is in v2 dev, outside --corpus all --split test/);
    expect(() =>
      selectBugs(all, { corpus: "v2", split: "all", subset: "full", ids: ["roman-compare-1"] }),
    ).toThrow(/outside --corpus v2/);
    expect(() => selectBugs(all, { corpus: "all", split: "all", subset: "full", ids: ["nope-1"] })).toThrow(
      /no bug nope-1/,
    );
  });

  it("each bug knows where it is: a faulty function per hunk", () => {
    const csv = all.find((b) => b.id === "csvimport-1")!;
    expect(csv.faulty).toEqual([{ file: "src/csvimport/schema.py", function: "normalize_header" }]);
    const roman = all.find((b) => b.id === "roman-compare-1")!;
    expect(roman.faulty.length).toBeGreaterThan(0);
  });
});

describe("loadSelection", () => {
  it("loads only what it needs and selects as selectBugs does", async () => {
    const v1 = await loadSelection({ corpus: "v1", split: "test", subset: "quick" });
    expect(groupsOf(v1)).toEqual(["v1"]);
    const picked = await loadSelection({
      corpus: "v1",
      split: "all",
      subset: "full",
      ids: ["csvimport-1"],
    }).catch((e: Error) => e.message);
    expect(picked).toMatch(/outside --corpus v1/);
  });
});
