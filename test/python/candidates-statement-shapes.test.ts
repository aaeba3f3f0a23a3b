import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyEdits } from "../../src/lang/experiment.js";
import { CandidateBench, dedent, lineOf, type FixCase, type LeaveAloneCase } from "./candidates-harness.js";

// The shapes of real projects' bugs that no single-token edit fixes: a write in the wrong
// block, the same slip in two functions, an accumulator never filled, a copy sharing a field,
// a member missing from a constant, a wrong name at every read, a value not passed through the
// module's own function, a bound moved by the module's own unit. Each fixes a small program of its own (host Python, local sandbox);
// two are the programs test/pipeline/offline-shapes.test.ts repairs end to end.

const program = (path: string): string =>
  readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");

const orders = program("shapes-branch/orders.py");

const running = dedent(`
  def running_totals(values):
      totals = []
      total = 0
      for value in values:
          total += value
      totals.append(total)
      return totals
`);

const prices = dedent(`
  def net_price(item):
      return item["price"] * (1 + item["discount"])


  def net_tax(item):
      return item["tax"] * (1 + item["discount"])


  def net_total(item):
      return net_price(item) + net_tax(item)
`);

const anchors = dedent(`
  def anchors(titles):
      seen = {}
      out = []
      for title in titles:
          slug = title.lower().replace(" ", "-")
          count = seen.get(slug, 0)
          out.append(slug if count == 0 else slug + "-" + str(count))
      return out
`);

const basket = dedent(`
  import copy


  class Basket:
      def __init__(self, owner):
          self.owner = owner
          self.items = []

      def add(self, item):
          self.items.append(item)

      def for_owner(self, owner):
          other = copy.copy(self)
          other.owner = owner
          return other
`);

const textfiles = dedent(`
  TEXT_TYPES = {".txt", ".md", ".csv"}


  def is_text(name):
      ext = name[name.rfind("."):].lower()
      return ext in TEXT_TYPES
`);

const labels = dedent(`
  def shipping_label(order, customer):
      lines = [order.number]
      lines.append(order.name + ", " + order.city)
      return " / ".join(lines)
`);

const codes = program("shapes-compose/codes.py");

const overdue = dedent(`
  from datetime import timedelta

  GRACE = timedelta(minutes=5)


  def is_overdue(due, now):
      """Overdue once the grace period after the due time has passed."""
      return now > due
`);

const fixes: FixCase[] = [
  {
    name: "orders", // a write done in one branch only: it belongs after the if
    family: "moved-statement",
    source: orders,
    lines: [lineOf(orders, "count += 1")],
    fix: [
      '            count += 1\n        else:\n            unpaid += order["amount"]\n',
      '        else:\n            unpaid += order["amount"]\n        count += 1\n',
    ],
    test: `
      from prog.orders import summarize
      def test_counts_every_order():
          got = summarize([{"paid": True, "amount": 5}, {"paid": False, "amount": 3}])
          assert got == {"paid": 5, "unpaid": 3, "count": 2}
    `,
  },
  {
    name: "running", // a statement after the loop that belongs inside it
    family: "moved-statement",
    source: running,
    lines: [lineOf(running, "totals.append(total)")],
    fix: ["    totals.append(total)", "        totals.append(total)"],
    test: `
      from prog.running import running_totals
      def test_each_step():
          assert running_totals([1, 2, 3]) == [1, 3, 6]
    `,
  },
  {
    name: "prices", // one test runs both functions: neither edit alone passes it
    family: "repeated-edit",
    source: prices,
    lines: [lineOf(prices, 'item["price"] * (1 +')],
    fix: [
      '(1 + item["discount"])\n\n\ndef net_tax(item):\n    return item["tax"] * (1 + item',
      '(1 - item["discount"])\n\n\ndef net_tax(item):\n    return item["tax"] * (1 - item',
    ],
    test: `
      from prog.prices import net_total
      def test_discounted():
          assert net_total({"price": 100, "tax": 20, "discount": 0.5}) == 60
    `,
  },
  {
    name: "anchors", // a counter read and never stored back
    family: "missing-update",
    source: anchors,
    lines: [lineOf(anchors, "count = seen.get")],
    fix: [
      "        count = seen.get(slug, 0)\n",
      "        count = seen.get(slug, 0)\n        seen[slug] = count + 1\n",
    ],
    test: `
      from prog.anchors import anchors
      def test_repeated_titles():
          assert anchors(["Intro", "Intro", "Intro"]) == ["intro", "intro-1", "intro-2"]
    `,
  },
  {
    name: "basket", // a copy that shares its list with the original
    family: "missing-reset",
    source: basket,
    lines: [lineOf(basket, "other = copy.copy(self)")],
    fix: [
      "        other.owner = owner\n",
      "        other.items = list(self.items)\n        other.owner = owner\n",
    ],
    test: `
      from prog.basket import Basket
      def test_copy_is_its_own():
          a = Basket("ann")
          a.add("tea")
          b = a.for_owner("bob")
          b.add("jam")
          assert a.items == ["tea"]
          assert b.items == ["tea", "jam"]
    `,
  },
  {
    name: "textfiles", // the member comes from the failing test's input
    family: "missing-member",
    source: textfiles,
    lines: [lineOf(textfiles, "return ext in TEXT_TYPES")],
    withTests: true,
    fix: ['".csv"}', '".csv", ".rst"}'],
    test: `
      from prog.textfiles import is_text
      def test_restructured_text():
          assert is_text("README.rst")
      def test_binary():
          assert not is_text("logo.png")
    `,
  },
  {
    name: "labels", // the wrong object at every read of the line
    family: "changed-identifier",
    source: labels,
    lines: [lineOf(labels, "order.name")],
    fix: ['order.name + ", " + order.city', 'customer.name + ", " + customer.city'],
    test: `
      from types import SimpleNamespace
      from prog.labels import shipping_label
      def test_label():
          order = SimpleNamespace(number="A1", name="order", city="nowhere")
          customer = SimpleNamespace(name="Ann", city="Oslo")
          assert shipping_label(order, customer) == "A1 / Ann, Oslo"
    `,
  },
  {
    name: "codes", // the module's own normalize, which the sibling function applies
    family: "wrapped-expression",
    source: codes,
    lines: [lineOf(codes, "table.get(code")],
    fix: ["table.get(code,", "table.get(normalize(code),"],
    test: `
      from prog.codes import lookup
      def test_spaced_lower_code():
          assert lookup({"AB": "alpha"}, " ab ") == "alpha"
    `,
  },
  {
    name: "overdue", // a bound extended by the module's own duration, not by a day
    family: "extended-expression",
    source: overdue,
    lines: [lineOf(overdue, "return now > due")],
    fix: ["now > due", "now > due + GRACE"],
    test: `
      from datetime import datetime
      from prog.overdue import is_overdue
      def test_within_grace():
          assert not is_overdue(datetime(2024, 1, 1, 10, 0), datetime(2024, 1, 1, 10, 3))
      def test_past_grace():
          assert is_overdue(datetime(2024, 1, 1, 10, 0), datetime(2024, 1, 1, 10, 6))
    `,
  },
];

/** No member is proposed when the tests name nothing like the constant's members. */
const flags = dedent(`
  MODES = (1, 2, 3)


  def valid(mode):
      return mode in MODES
`);

const alone: LeaveAloneCase[] = [
  {
    name: "flags", // no test file given: no evidence, no member
    source: flags,
    lines: [lineOf(flags, "return mode in MODES")],
    forbidden: (k) => (k.family === "missing-member" ? `proposed ${k.claim}` : undefined),
  },
  {
    name: "orders_returns", // a write before a `return` in its branch is not moved after the if
    source: dedent(`
      def first_paid(orders):
          found = None
          for order in orders:
              if order["paid"]:
                  found = order
                  return found
          return found
    `),
    lines: [5],
    forbidden: (k, edited) =>
      k.family === "moved-statement" && edited.includes("\n        found = order\n") ? k.claim : undefined,
  },
];

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", fixes, alone);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("repair candidates of real projects' bug shapes", () => {
  for (const c of fixes) {
    it(`${c.family}: proposes the fix for prog/${c.name}.py, which makes its test pass`, async () => {
      const all = await bench.expectFixed(c);
      await bench.expectAllParse(c.source, all);
    });
  }

  it("repeated-edit: each edit alone is a candidate too, tried before the pair", async () => {
    const all = await bench.candidates("prices", { lines: [lineOf(prices, 'item["price"] * (1 +')] });
    const pair = all.find((k) => k.family === "repeated-edit" && k.edits.length === 2);
    const single = all.find(
      (k) =>
        k.family === "changed-operator" &&
        applyEdits(prices, k.edits).source.includes('(1 - item["discount"])'),
    );
    expect(pair?.edits.map((e) => e.line)).toEqual([2, 6]);
    expect(single!.prior).toBeLessThan(pair!.prior);
    // No copy in the same function, and none where the text around the token differs.
    expect(
      all
        .filter((k) => k.family === "repeated-edit")
        .every((k) => k.edits.every((e) => e.line === 2 || e.line === 6)),
    ).toBe(true);
  });

  it("missing-member: the member comes from the failing tests' file, and without it there is none", async () => {
    const given = await bench.candidates("textfiles", {
      lines: [lineOf(textfiles, "return ext in TEXT_TYPES")],
      tests: ["tests/test_textfiles.py"],
    });
    const members = given
      .filter((k) => k.family === "missing-member")
      .map((k) => applyEdits(textfiles, k.edits).source);
    expect(members.some((s) => s.includes('".png"'))).toBe(true);
    const without = await bench.candidates("textfiles", {
      lines: [lineOf(textfiles, "return ext in TEXT_TYPES")],
    });
    expect(without.filter((k) => k.family === "missing-member")).toEqual([]);
  });

  for (const c of alone) {
    it(`leaves prog/${c.name}.py alone where the shape does not fit`, async () => {
      await bench.expectLeftAlone(c);
    });
  }
});
