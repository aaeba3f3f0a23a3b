import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CandidateBench, dedent, lineOf, type FixCase, type LeaveAloneCase } from "./candidates-harness.js";

// Expression-level families: each fixes a small program of its own, and leaves alone what it must.
// The helper runs with the host Python (HYPOFIX_PYTHON) in a local sandbox.

const bounds = dedent(`
  def in_stock(on_hand, reorder_level):
      """True when no reorder is needed."""
      return on_hand >= reorder_level


  def needs_reorder(on_hand, reorder_level):
      return on_hand < reorder_level
`);

const keys = dedent(`
  def contact(user):
      return user["mail"]


  def make_user(name, email):
      return {"name": name, "email": email}
`);

const literal = dedent(`
  def join_words(words):
      return "".join(words)


  def title(words):
      return " ".join(w.capitalize() for w in words)
`);

const identifier = dedent(`
  def safe_url(url):
      lowered = url.strip().lower()
      if url.startswith(("javascript:", "data:")):
          return ""
      return url
`);

const exceptions = dedent(`
  UNITS = {"k": 1000, "m": 1000000}


  class ConfigError(Exception):
      pass


  def to_size(text):
      number, unit = text[:-1], text[-1]
      try:
          factor = UNITS[unit]
      except ValueError:
          raise ConfigError("unknown unit " + unit)
      return int(number) * factor
`);

const mutable = dedent(`
  def render(template, context={}, **extra):
      context.update(extra)
      return template.format(**context)
`);

const lastFlag = dedent(`
  def flag_last(items):
      out = []
      for index, item in enumerate(items):
          out.append((item, index == len(items)))
      return out
`);

const raised = dedent(`
  class StockError(Exception):
      pass


  class Insufficient(StockError):
      def __init__(self, sku, requested, available):
          super().__init__(f"{requested} of {sku}: only {available}")
          self.available = available


  def take(stock, sku, qty):
      available = stock.get(sku, 0)
      if qty > available:
          raise ValueError(f"cannot take {qty} of {sku}: only {available}")
      stock[sku] = available - qty
      return qty


  def try_take(stock, sku, qty):
      try:
          return take(stock, sku, qty)
      except StockError as e:
          return e.available
`);

const leftOut = dedent(`
  class Short:
      def __init__(self, available):
          self.available = available


  def backordered(qty, on_hand):
      short = Short(min(qty, on_hand))
      if short.available > 0:
          print("shipping", short.available)
      rest = qty
      return rest
`);

const falsy = dedent(`
  def rate_or(rate, default):
      if not rate:
          return default
      return rate
`);

// Saved by an editor that writes a UTF-8 byte order mark: Python drops it, and so must the parser.
const bom = "\ufeff" + bounds;

const fixes: FixCase[] = [
  {
    name: "bom",
    family: "changed-operator",
    source: bom,
    lines: [lineOf(bom, "return on_hand < reorder_level")],
    fix: ["on_hand < reorder_level", "on_hand <= reorder_level"],
    test: `
      from prog.bom import needs_reorder
      def test_at_level():
          assert needs_reorder(5, 5)
    `,
  },
  {
    name: "bounds",
    family: "changed-operator",
    source: bounds,
    lines: [lineOf(bounds, "return on_hand < reorder_level")],
    fix: ["on_hand < reorder_level", "on_hand <= reorder_level"],
    test: `
      from prog.bounds import needs_reorder
      def test_at_level():
          assert needs_reorder(5, 5)
      def test_above():
          assert not needs_reorder(6, 5)
    `,
  },
  {
    name: "keys",
    family: "changed-key",
    source: keys,
    lines: [lineOf(keys, 'user["mail"]')],
    fix: ['"mail"', '"email"'],
    test: `
      from prog.keys import contact, make_user
      def test_contact():
          assert contact(make_user("ann", "a@x.org")) == "a@x.org"
    `,
  },
  {
    name: "literal",
    family: "changed-literal",
    source: literal,
    lines: [lineOf(literal, '"".join')],
    fix: ['"".join', '" ".join'],
    test: `
      from prog.literal import join_words
      def test_join():
          assert join_words(["a", "b"]) == "a b"
    `,
  },
  {
    name: "identifier",
    family: "changed-identifier",
    source: identifier,
    lines: [lineOf(identifier, "if url.startswith")],
    fix: ["if url.startswith", "if lowered.startswith"],
    test: `
      from prog.identifier import safe_url
      def test_upper_scheme():
          assert safe_url(" JavaScript:alert(1)") == ""
      def test_plain():
          assert safe_url("https://x.org") == "https://x.org"
    `,
  },
  {
    name: "exceptions",
    family: "wrong-exception",
    source: exceptions,
    lines: [lineOf(exceptions, "except ValueError")],
    fix: ["except ValueError", "except KeyError"],
    test: `
      import pytest
      from prog.exceptions import ConfigError, to_size
      def test_unknown_unit():
          with pytest.raises(ConfigError):
              to_size("12q")
      def test_known():
          assert to_size("2k") == 2000
    `,
  },
  {
    name: "mutable",
    family: "mutable-default",
    source: mutable,
    lines: [lineOf(mutable, "context.update")],
    fix: [
      "context={}, **extra):\n",
      "context=None, **extra):\n    if context is None:\n        context = {}\n",
    ],
    test: `
      from prog.mutable import render
      def test_no_leak():
          assert render("{a}", a=1) == "1"
          assert render("{b}", b=2) == "2"
          import pytest
          with pytest.raises(KeyError):
              render("{a}")
    `,
  },
  {
    name: "last_flag",
    family: "off-by-one",
    source: lastFlag,
    lines: [lineOf(lastFlag, "index == len(items)")],
    test: `
      from prog.last_flag import flag_last
      def test_last():
          assert flag_last(["a", "b"]) == [("a", False), ("b", True)]
    `,
    fix: ["index == len(items)", "index == len(items) - 1"],
  },
  {
    // The exception's own arguments: its __init__'s namesakes in scope, the rest from the message's names.
    name: "raised",
    family: "wrong-exception",
    source: raised,
    lines: [lineOf(raised, "raise ValueError")],
    test: `
      from prog.raised import try_take
      def test_short():
          assert try_take({"a": 2}, "a", 5) == 2
    `,
    fix: ['ValueError(f"cannot take {qty} of {sku}: only {available}")', "Insufficient(sku, qty, available)"],
  },
  {
    name: "left_out", // a term read just above, left out of the assignment
    family: "extended-expression",
    source: leftOut,
    lines: [lineOf(leftOut, "rest = qty")],
    test: `
      from prog.left_out import backordered
      def test_rest(): assert backordered(5, 2) == 3
    `,
    fix: ["rest = qty", "rest = qty - short.available"],
  },
  {
    name: "falsy", // a truth test where a None test is meant: a rate of 0 is a rate
    family: "over-broad-condition",
    source: falsy,
    lines: [lineOf(falsy, "if not rate")],
    test: `
      from prog.falsy import rate_or
      def test_zero_rate(): assert rate_or(0, 0.2) == 0
      def test_no_rate(): assert rate_or(None, 0.2) == 0.2
    `,
    fix: ["not rate", "rate is None"],
  },
];

const annotated = dedent(`
  from typing import List


  class Order:
      """An order. Its total is the sum of the line prices."""

      def __init__(self, lines: List[int], owner: str) -> None:
          self.lines = lines
          self.owner = owner

      def total(self, discount: int = 0) -> int:
          """Sum of lines minus the discount; see also Order.owner."""
          value: int = sum(self.lines)
          return value - discount
`);

const alone: LeaveAloneCase[] = [
  {
    name: "annotated",
    source: annotated,
    span: { start: 1, end: annotated.split("\n").length },
    forbidden: (c, edited) => {
      const before = annotated.split("\n");
      const after = edited.split("\n");
      const changedDoc = after.some((l, i) => l.includes('"""') && l !== before[i]);
      if (changedDoc) return `${c.claim}: edits a docstring`;
      if (/List\[|: str|-> int|-> None|: int/.test(c.features.before))
        return `${c.claim}: edits an annotation`;
      if (!edited.includes("lines: List[int], owner: str) -> None:"))
        return `${c.claim}: edits the signature's annotations`;
      if (!edited.includes("value: int = ")) return `${c.claim}: edits a variable annotation`;
      return undefined;
    },
  },
];

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", fixes, alone);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("repair candidates from the program's syntax tree", () => {
  for (const c of fixes) {
    it(`${c.family}: proposes the fix for prog/${c.name}.py, which makes its test pass`, async () => {
      const all = await bench.expectFixed(c);
      await bench.expectAllParse(c.source, all);
    });
  }

  it("never edits a docstring or a type annotation", async () => {
    const all = await bench.expectLeftAlone(alone[0]!);
    // The span covers the methods: there is something to propose, only not there.
    expect(all.length).toBeGreaterThan(5);
    expect(all.some((c) => c.family === "changed-operator" && c.features.before === "-")).toBe(true);
  });

  it("takes evidence from the failure as hints: runtime keys and raised types become likelier candidates", async () => {
    const line = lineOf(keys, 'user["mail"]');
    const plain = await bench.candidates("keys", { lines: [line] });
    const hinted = await bench.candidates("keys", { lines: [line], hints: { keys: ["e_mail", "email"] } });
    const key = (all: typeof plain, k: string) =>
      all.find((c) => c.family === "changed-key" && c.features.literals.includes(`"${k}"`));
    expect(key(plain, "e_mail")).toBeUndefined();
    expect(key(hinted, "e_mail")).toBeDefined();
    expect(key(hinted, "email")!.prior).toBeLessThan(key(plain, "email")!.prior);

    const except = lineOf(exceptions, "except ValueError");
    const catchAs = (all: typeof plain, t: string) =>
      all.find((c) => c.family === "wrong-exception" && c.features.after === t);
    const before = await bench.candidates("exceptions", { lines: [except] });
    const after = await bench.candidates("exceptions", {
      lines: [except],
      hints: { exceptions: ["KeyError"] },
    });
    expect(catchAs(after, "KeyError")!.prior).toBeLessThan(catchAs(before, "KeyError")!.prior);
    expect(after.filter((c) => c.family === "wrong-exception")[0]?.features.after).toBe("KeyError");
  });

  it("gives a test file no candidates", async () => {
    const got = await bench.sandbox.readFile("tests/test_bounds.py");
    expect(got).toContain("needs_reorder");
    expect(await bench.runtime.candidates({ file: "tests/test_bounds.py", lines: [3, 4] })).toEqual([]);
  });
});
