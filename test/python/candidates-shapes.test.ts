import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyEdits } from "../../src/lang/experiment.js";
import { CandidateBench, dedent, lineOf, type FixCase, type LeaveAloneCase } from "./candidates-harness.js";

// The shapes real projects' bugs take that need an edit of a regular expression, an added
// conjunct or disjunct, or a new early return: each family fixes small programs of its own
// (host Python, local sandbox), with the evidence the engine passes (the compared values, the
// failing tests' files).

const code = dedent(`
  import re


  def is_code(text):
      return re.match(r"[A-Z]{3}-\\d+", text) is not None
`);

const slug = dedent(`
  import re


  def slug(title):
      return re.sub(r"[^a-z]+", "-", title.lower()).strip("-")
`);

const counts = dedent(`
  import re

  AMOUNT = re.compile(r"(\\d+) kg")


  def weight(text):
      m = AMOUNT.search(text)
      return float(m.group(1)) if m else 0.0
`);

const tags = dedent(`
  import re


  def parse_tag(text):
      m = re.fullmatch(r"(\\w+)=(\\w+)", text)
      return (m.group(1), m.group(2)) if m else None
`);

const versions = dedent(`
  import re


  def parts(version):
      return re.split(".", version)
`);

const hidden = dedent(`
  def visible(names, include_hidden=False):
      out = []
      for name in names:
          if name.startswith("_"):
              continue
          out.append(name)
      return out
`);

const fees = dedent(`
  def fee(amount, member):
      if amount > 100:
          return 0
      return 5
`);

const admins = dedent(`
  def active(users, include_admins=False):
      return [u for u in users if not u.startswith("admin")]
`);

const initials = dedent(`
  def initials(name):
      parts = name.split(" ")
      return "".join(p[0].upper() for p in parts)
`);

const fixes: FixCase[] = [
  {
    name: "code", // an anchor missing: a code followed by anything passes
    family: "changed-pattern",
    source: code,
    lines: [lineOf(code, "re.match")],
    test: `
      from prog.code import is_code
      def test_code():
          assert is_code("ABC-12")
          assert not is_code("ABC-12x")
    `,
    fix: ['r"[A-Z]{3}-\\d+"', 'r"[A-Z]{3}-\\d+$"'],
    evidence: { tests: ["tests/test_code.py"] },
  },
  {
    name: "slug", // a negated class too wide: digits are dropped from the slug
    family: "changed-pattern",
    source: slug,
    lines: [lineOf(slug, "re.sub")],
    test: `
      from prog.slug import slug
      def test_digits_stay():
          assert slug("Top 10 Tips") == "top-10-tips"
    `,
    fix: ["[^a-z]+", "[^a-z0-9]+"],
    evidence: { hints: { values: ["'top-tips'", "'top-10-tips'"] }, tests: ["tests/test_slug.py"] },
  },
  {
    name: "counts", // a category escape too narrow, in a pattern compiled at module level
    family: "changed-pattern",
    source: counts,
    lines: [lineOf(counts, "AMOUNT.search")],
    test: `
      from prog.counts import weight
      def test_fraction():
          assert weight("2.5 kg") == 2.5
    `,
    fix: ["(\\d+) kg", "([\\d.]+) kg"],
    evidence: { hints: { values: ["5.0", "2.5"] }, tests: ["tests/test_counts.py"] },
  },
  {
    name: "tags", // `+` where `*` is meant: an empty value is refused
    family: "changed-pattern",
    source: tags,
    lines: [lineOf(tags, "re.fullmatch")],
    test: `
      from prog.tags import parse_tag
      def test_empty_value():
          assert parse_tag("debug=") == ("debug", "")
          assert parse_tag("=x") is None
    `,
    fix: ["=(\\w+)", "=(\\w*)"],
    evidence: { hints: { values: ["None", "('debug', '')"] }, tests: ["tests/test_tags.py"] },
  },
  {
    name: "versions", // a meta character left unescaped: `.` splits at every character
    family: "changed-pattern",
    source: versions,
    lines: [lineOf(versions, "re.split")],
    test: `
      from prog.versions import parts
      def test_parts():
          assert parts("1.2.3") == ["1", "2", "3"]
    `,
    fix: ['"."', 'r"\\."'],
    evidence: { tests: ["tests/test_versions.py"] },
  },
  {
    name: "hidden", // a conjunct missing: a flag in scope is never consulted
    family: "missing-condition",
    source: hidden,
    lines: [lineOf(hidden, 'if name.startswith("_")')],
    test: `
      from prog.hidden import visible
      def test_hidden():
          assert visible(["a", "_b"]) == ["a"]
          assert visible(["a", "_b"], include_hidden=True) == ["a", "_b"]
    `,
    fix: ['if name.startswith("_"):', 'if name.startswith("_") and not include_hidden:'],
  },
  {
    name: "fees", // a disjunct missing: members never pay either
    family: "missing-alternative",
    source: fees,
    lines: [lineOf(fees, "if amount > 100")],
    test: `
      from prog.fees import fee
      def test_member():
          assert fee(150, False) == 0
          assert fee(50, False) == 5
          assert fee(50, True) == 0
    `,
    fix: ["if amount > 100:", "if amount > 100 or member:"],
  },
  {
    name: "admins", // a comprehension's filter missing an alternative
    family: "missing-alternative",
    source: admins,
    lines: [lineOf(admins, "return")],
    test: `
      from prog.admins import active
      def test_admins():
          assert active(["bob", "admin1"]) == ["bob"]
          assert active(["bob", "admin1"], include_admins=True) == ["bob", "admin1"]
    `,
    fix: ['if not u.startswith("admin")]', 'if (not u.startswith("admin") or include_admins)]'],
  },
  {
    name: "initials", // an edge case without its early return: an empty name
    family: "missing-edge-case",
    source: initials,
    lines: [lineOf(initials, "return")],
    test: `
      from prog.initials import initials
      def test_empty():
          assert initials("Ada Lovelace") == "AL"
          assert initials("") == ""
    `,
    fix: [
      '    parts = name.split(" ")\n',
      '    if not name:\n        return ""\n    parts = name.split(" ")\n',
    ],
    evidence: { tests: ["tests/test_initials.py"] },
  },
];

const notPatterns = dedent(`
  import re


  def join(parts, sep="[a-z]+"):
      return sep.join(parts) + re.escape("a+b")
`);

const generated = dedent(`
  def pairs(items):
      for a, b in zip(items, items[1:]):
          yield a, b


  class Box:
      def __init__(self, size):
          self.size = size
`);

const crowded = dedent(`
  import re


  def pick(a, b=None, c=0, d="", e=False, f=(), g=1.5):
      h = a + c
      if h > 3 and re.search(r"^(\\w+)-(\\d*)\\.([a-z]+)?$", d):
          return b
      return g
`);

const alone: LeaveAloneCase[] = [
  {
    name: "crowded",
    source: crowded,
    lines: [lineOf(crowded, "if h > 3"), lineOf(crowded, "return b")],
    forbidden: () => undefined,
  },
  {
    name: "notpatterns",
    source: notPatterns,
    lines: [lineOf(notPatterns, "return")],
    forbidden: (c) =>
      c.family === "changed-pattern" ? `a string that is no pattern changed: ${c.claim}` : undefined,
  },
  {
    name: "generated",
    source: generated,
    span: { start: 1, end: 9 },
    forbidden: (c, edited) =>
      c.family === "missing-edge-case" &&
      (/yield/.test(c.claim) || /def pairs[^]*return/.test(edited) || /__init__[^]*return \S/.test(edited))
        ? `an early return where a value cannot be returned: ${c.claim}`
        : undefined,
  },
];

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", fixes, alone);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("repair candidates for the shapes of real projects' bugs", () => {
  for (const c of fixes) {
    it(`${c.family}: proposes the fix for prog/${c.name}.py, which makes its test pass`, async () => {
      const all = await bench.expectFixed(c);
      await bench.expectAllParse(c.source, all);
    });
  }

  for (const c of alone) {
    it(`leaves prog/${c.name}.py alone where the family does not apply`, async () => {
      await bench.expectLeftAlone(c);
    });
  }

  it("keeps each new family's candidates bounded however many names, parameters and pattern parts there are", async () => {
    const all = await bench.expectLeftAlone(alone.find((c) => c.name === "crowded")!);
    const count = (family: string) => all.filter((k) => k.family === family).length;
    expect(count("changed-pattern")).toBeGreaterThan(0);
    expect(count("changed-pattern")).toBeLessThanOrEqual(12);
    expect(count("missing-alternative")).toBeGreaterThan(0);
    // 16 added conjuncts and disjuncts, and up to 4 conjuncts from the body's subscripts (conditions.py).
    expect(count("missing-condition") + count("missing-alternative")).toBeLessThanOrEqual(16 + 4);
    expect(count("missing-edge-case")).toBeGreaterThan(0);
    expect(count("missing-edge-case")).toBeLessThanOrEqual(6 * 4);
  });

  it("orders a pattern's edits by the evidence: the edit that changes what the failing test's strings match comes first", async () => {
    const c = fixes.find((f) => f.name === "slug")!;
    const wanted = c.source.replace(c.fix[0], c.fix[1]);
    const patterns = (request: object) =>
      bench
        .candidates(c.name, { lines: c.lines, ...request })
        .then((all) => all.filter((k) => k.family === "changed-pattern"));
    const withEvidence = await patterns(c.evidence!);
    expect(withEvidence.length).toBeLessThanOrEqual(12);
    expect(applyEdits(c.source, withEvidence[0]!.edits).source).toBe(wanted);
    // Without the failing test's strings there is no character to widen the class by.
    const without = await patterns({});
    expect(without.length).toBeGreaterThan(0);
    expect(without.some((k) => applyEdits(c.source, k.edits).source === wanted)).toBe(false);
  });

  it("tries first the edge the failing test calls the function with, and likelier than without that call", async () => {
    const c = fixes.find((f) => f.name === "initials")!;
    const wanted = c.source.replace(c.fix[0], c.fix[1]);
    const edges = (request: object) =>
      bench
        .candidates(c.name, { lines: c.lines, ...request })
        .then((all) => all.filter((k) => k.family === "missing-edge-case"));
    const called = await edges(c.evidence!);
    expect(applyEdits(c.source, called[0]!.edits).source).toBe(wanted);
    // Without the test's call the emptiness test still comes (the name is split: text), less likely.
    const uncalled = (await edges({})).find((k) => applyEdits(c.source, k.edits).source === wanted);
    expect(uncalled).toBeDefined();
    expect(uncalled!.prior).toBeGreaterThan(called[0]!.prior);
  });
});
