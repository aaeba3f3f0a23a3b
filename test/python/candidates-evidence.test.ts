import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CandidateBench, dedent, lineOf } from "./candidates-harness.js";

// What the failure's runtime evidence and the function's own data flow change in the candidates:
// a computed value never read, and the runtime types of the names (hints.types), which drop edits
// that do not fit them. Host Python, local sandbox.

const unusedLocal = dedent(`
  def first_word(text, sep):
      cleaned = text.strip()
      words = text.split(sep)
      return words[0]
`);

const unusedParam = dedent(`
  def window(windows, route, prefix):
      return windows.get(route, 0)
`);

const firstSeen = dedent(`
  def first_seen(rows):
      first = {}
      for line, row in rows:
          key = tuple(row)
          if key not in first:
              first[key] = line
      return first
`);

const keyed = dedent(`
  def summary(items):
      return {"count": len(items), "totl": sum(items)}
`);

const bucket = dedent(`
  class Bucket:
      def __init__(self, capacity, name):
          self.capacity = capacity
          self.name = name
          self.tokens = capacity

      def full(self):
          return self.tokens >= self.name
`);

let bench: CandidateBench;
beforeAll(async () => {
  process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
  bench = await CandidateBench.create("local", []);
  for (const [name, source] of [
    ["unused_local", unusedLocal],
    ["unused_param", unusedParam],
    ["first_seen", firstSeen],
    ["keyed", keyed],
    ["bucket", bucket],
  ] as const) {
    await bench.sandbox.writeFile(`prog/${name}.py`, source);
  }
  await bench.sandbox.writeFile(
    "tests/test_keyed.py",
    'from prog.keyed import summary\n\n\ndef test_total():\n    assert summary([1, 2])["total"] == 3\n',
  );
  // The same test saved by an editor that writes a UTF-8 byte order mark.
  await bench.sandbox.writeFile(
    "tests/test_keyed_bom.py",
    '\ufefffrom prog.keyed import summary\n\n\ndef test_total():\n    assert summary([1, 2])["total"] == 3\n',
  );
});
afterAll(async () => {
  await bench?.dispose();
});

describe("a value computed and never read", () => {
  const identifiers = async (name: string, line: number) =>
    (await bench.candidates(name, { lines: [line] })).filter((c) => c.family === "changed-identifier");

  it("is the likeliest replacement for a name read beside it: a local first, then a parameter", async () => {
    const local = (await identifiers("unused_local", lineOf(unusedLocal, "words = text.split"))).filter((c) =>
      c.claim.includes(" uses "),
    );
    const toCleaned = local.filter((c) => c.claim.includes("where `cleaned` is meant"));
    const others = local.filter((c) => !c.claim.includes("where `cleaned` is meant"));
    expect(toCleaned.map((c) => c.claim)).toContainEqual(expect.stringContaining("`text` where `cleaned`"));
    expect(Math.max(...toCleaned.map((c) => c.prior))).toBeLessThan(Math.min(...others.map((c) => c.prior)));
    const param = await identifiers("unused_param", lineOf(unusedParam, "windows.get"));
    const ranked = [...param].sort((a, b) => a.prior - b.prior);
    expect(ranked[0]!.claim).toContain("`route` where `prefix` is meant");
    // Read names are still candidates, only less likely.
    expect(ranked.some((c) => c.claim.includes("`route` where `windows` is meant"))).toBe(true);
  });
});

describe("runtime types of the names (hints.types)", () => {
  const line = lineOf(firstSeen, "first[key] = line");
  const types = { first: "dict", key: "tuple", line: "int", row: "list", rows: "list" };
  const offByOne = (claims: string[]) => claims.filter((c) => /off by one/.test(c));

  it("drops ±1 edits of a tuple and of a mapping's key when the test showed those types", async () => {
    const without = await bench.candidates("first_seen", { lines: [line] });
    expect(offByOne(without.map((c) => c.claim))).not.toEqual([]);
    const typed = await bench.candidates("first_seen", {
      lines: [line],
      hints: { types: [{ line, types }] },
    });
    expect(offByOne(typed.map((c) => c.claim))).toEqual([]);
    // `line + 1` still fits an int.
    const linePlusOne = (cs: typeof typed) =>
      cs.some((c) => c.edits.some((e) => e.op === "REPLACE" && e.new.includes("line + 1")));
    expect(linePlusOne(typed)).toBe(linePlusOne(without));
  });

  it("makes a name of another type a less likely replacement, not an impossible one", async () => {
    const prior = (cs: Awaited<ReturnType<CandidateBench["candidates"]>>) =>
      cs.find((c) => c.family === "changed-identifier" && c.claim.includes("`key` where `line` is meant"))
        ?.prior;
    const without = prior(await bench.candidates("first_seen", { lines: [line] }));
    const typed = prior(
      await bench.candidates("first_seen", { lines: [line], hints: { types: [{ line, types }] } }),
    );
    expect(without).toBeDefined();
    expect(typed).toBeGreaterThan(without!);
  });
});

describe("runtime types of self's attributes (hints.types)", () => {
  it("puts an attribute of the type the test showed before one of another type", async () => {
    const line = lineOf(bucket, "return self.tokens");
    const types = { self: "Bucket", "self.capacity": "int", "self.name": "str", "self.tokens": "int" };
    const attrs = (await bench.candidates("bucket", { lines: [line], hints: { types: [{ line, types }] } }))
      .filter((c) => c.family === "changed-attribute" && c.claim.includes("reads the attribute `tokens`"))
      .sort((a, b) => a.prior - b.prior);
    expect(attrs[0]!.claim).toContain("where `capacity` is meant");
    const toName = (cs: typeof attrs) => cs.find((c) => c.claim.includes("where `name` is meant"))!.prior;
    const untyped = (await bench.candidates("bucket", { lines: [line] })).filter(
      (c) => c.family === "changed-attribute" && c.claim.includes("reads the attribute `tokens`"),
    );
    expect(toName(attrs)).toBeGreaterThan(toName(untyped));
  });
});

describe("keys the failing tests use (tests)", () => {
  it("offers a key only the test file names, and not without the test file", async () => {
    const line = lineOf(keyed, "return {");
    const toTotal = (cs: Awaited<ReturnType<CandidateBench["candidates"]>>) =>
      cs.filter((c) => c.family === "changed-key" && c.claim.includes('`"total"`'));
    expect(toTotal(await bench.candidates("keyed", { lines: [line] }))).toEqual([]);
    const found = toTotal(await bench.candidates("keyed", { lines: [line], tests: ["tests/test_keyed.py"] }));
    expect(found.map((c) => c.edits[0])).toContainEqual(
      expect.objectContaining({ old: "totl", new: "total" }),
    );
  });

  it("reads a test file that starts with a byte order mark", async () => {
    const line = lineOf(keyed, "return {");
    const found = (
      await bench.candidates("keyed", { lines: [line], tests: ["tests/test_keyed_bom.py"] })
    ).filter((c) => c.family === "changed-key" && c.claim.includes('`"total"`'));
    expect(found.map((c) => c.edits[0])).toContainEqual(
      expect.objectContaining({ old: "totl", new: "total" }),
    );
  });
});
