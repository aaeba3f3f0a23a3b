import { afterAll, beforeAll, describe, it } from "vitest";
import { CandidateBench, dedent, lineOf, type FixCase } from "./candidates-harness.js";

// Families that insert or rewrite statements: each fixes a small program of its own
// (host Python, local sandbox).

const groups = dedent(`
  def runs(values):
      groups = []
      current = []
      for value in values:
          if current and value != current[-1]:
              groups.append(current)
              current = []
          current.append(value)
      return groups
`);

const totals = dedent(`
  def row_totals(rows):
      totals = []
      total = 0
      for row in rows:
          for cell in row:
              total += cell
          totals.append(total)
      return totals
`);

const average = dedent(`
  def average(values):
      return sum(values) / len(values)
`);

const names = dedent(`
  def clean(name):
      name.strip()
      return name.title()
`);

const kept = dedent(`
  def unique(items):
      seen = set()
      kept = []
      for item in items:
          if item not in seen:
              seen.add(item)
              kept.append(item)
`);

const booking = dedent(`
  from datetime import date, timedelta


  def nights(start, end):
      days = []
      day = start
      while day < end:
          days.append(day)
          day += timedelta(days=1)
      return days


  def inclusive_days(start, end):
      return nights(start, end)
`);

const ledger = dedent(`
  def balance(entries):
      total = 0
      for kind, amount in entries:
          total += amount
      return total


  def net(debit, credit):
      return credit - debit
`);

const counter = dedent(`
  class Counter:
      def __init__(self):
          self._counts = {}

      def hit(self, name):
          self._counts[name] = self._counts.get(name, 0) + 1

      def snapshot(self):
          return self._counts
`);

const lookup = dedent(`
  def resolve(path, scope):
      value = scope
      for part in path.split("."):
          if isinstance(value, dict):
              value = value[part]
          else:
              return ""
      return value
`);

const primes = dedent(`
  def prime_factors(n):
      d = 2
      while n > 1:
          if n % d == 0:
              found.append(d)
              n //= d
          else:
              d += 1
      return found
`);

const cleaned = dedent(`
  def normalize(text):
      return "".join(ch.lower() for ch in text if ch.isalnum())


  def is_palindrome(text):
      return cleaned == cleaned[::-1]
`);

const bucket = dedent(`
  class Bucket:
      def __init__(self, capacity):
          self.capacity = capacity
          self.tokens = capacity

      def refill(self, amount):
          self.tokens += amount
          return self.tokens
`);

const lru = dedent(`
  from collections import OrderedDict


  class Cache:
      def __init__(self):
          self.data = OrderedDict()

      def put(self, key, value):
          self.data[key] = value
          self.data.move_to_end(key)

      def get(self, key):
          value = self.data[key]
          return value

      def oldest(self):
          return next(iter(self.data))
`);

const fixes: FixCase[] = [
  {
    name: "counter",
    family: "missing-copy",
    source: counter,
    lines: [lineOf(counter, "return self._counts")],
    fix: ["return self._counts", "return dict(self._counts)"],
    test: `
      from prog.counter import Counter
      def test_snapshot_does_not_move():
          c = Counter()
          c.hit("a")
          before = c.snapshot()
          c.hit("a")
          assert before == {"a": 1}
    `,
  },
  {
    name: "lookup",
    family: "missing-condition",
    source: lookup,
    lines: [lineOf(lookup, "if isinstance(value, dict)")],
    fix: ["if isinstance(value, dict):", "if isinstance(value, dict) and part in value:"],
    test: `
      from prog.lookup import resolve
      def test_missing_is_empty():
          assert resolve("a.b", {"a": {}}) == ""
      def test_found():
          assert resolve("a.b", {"a": {"b": 3}}) == 3
    `,
  },
  {
    name: "primes",
    family: "missing-init",
    source: primes,
    lines: [lineOf(primes, "found.append(d)")],
    fix: ["    while n > 1:\n", "    found = []\n    while n > 1:\n"],
    test: `
      from prog.primes import prime_factors
      def test_twelve():
          assert prime_factors(12) == [2, 2, 3]
    `,
  },
  {
    name: "groups",
    family: "missing-append",
    source: groups,
    lines: [lineOf(groups, "return groups")],
    fix: [
      "        current.append(value)\n",
      "        current.append(value)\n    if current:\n        groups.append(current)\n",
    ],
    test: `
      from prog.groups import runs
      def test_last_run_kept():
          assert runs([1, 1, 2]) == [[1, 1], [2]]
      def test_empty():
          assert runs([]) == []
    `,
  },
  {
    name: "totals",
    family: "missing-reset",
    source: totals,
    lines: [lineOf(totals, "total += cell")],
    fix: ["    for row in rows:\n", "    for row in rows:\n        total = 0\n"],
    test: `
      from prog.totals import row_totals
      def test_rows():
          assert row_totals([[1, 2], [3]]) == [3, 3]
    `,
  },
  {
    name: "average",
    family: "missing-guard",
    source: average,
    lines: [lineOf(average, "return sum(values)")],
    fix: ["    return sum", "    if not values:\n        return None\n    return sum"],
    test: `
      from prog.average import average
      def test_empty():
          assert average([]) is None
      def test_two():
          assert average([1, 3]) == 2
    `,
  },
  {
    name: "names",
    family: "discarded-result",
    source: names,
    lines: [lineOf(names, "name.strip()")],
    fix: ["    name.strip()", "    name = name.strip()"],
    test: `
      from prog.names import clean
      def test_spaces():
          assert clean("  ann lee ") == "Ann Lee"
    `,
  },
  {
    name: "kept",
    family: "missing-return",
    source: kept,
    lines: [lineOf(kept, "kept.append(item)")],
    fix: ["kept.append(item)\n", "kept.append(item)\n    return kept\n"],
    test: `
      from prog.kept import unique
      def test_order_kept():
          assert unique([3, 1, 3, 2, 1]) == [3, 1, 2]
    `,
  },
  {
    name: "booking",
    family: "extended-expression",
    source: booking,
    lines: [lineOf(booking, "return nights(start, end)")],
    fix: ["return nights(start, end)", "return nights(start, end + timedelta(days=1))"],
    test: `
      from datetime import date
      from prog.booking import inclusive_days
      def test_both_ends():
          assert len(inclusive_days(date(2024, 1, 1), date(2024, 1, 3))) == 3
    `,
  },
  {
    name: "ledger",
    family: "swapped-operands",
    source: ledger,
    lines: [lineOf(ledger, "return credit - debit")],
    fix: ["credit - debit", "debit - credit"],
    test: `
      from prog.ledger import net
      def test_net_owed():
          assert net(10, 4) == 6
    `,
  },
  {
    name: "cleaned", // nothing says what the value is: a one-argument function of the module on the parameter
    family: "missing-init",
    source: cleaned,
    lines: [lineOf(cleaned, "return cleaned")],
    test: `
      from prog.cleaned import is_palindrome
      def test_phrase(): assert is_palindrome("Never odd, or even")
    `,
    fix: ["    return cleaned ==", "    cleaned = normalize(text)\n    return cleaned =="],
  },
  {
    name: "bucket", // a running total that should stop at the object's bound
    family: "extended-expression",
    source: bucket,
    lines: [lineOf(bucket, "self.tokens += amount")],
    test: `
      from prog.bucket import Bucket
      def test_full():
          b = Bucket(5)
          b.tokens = 4
          assert b.refill(3) == 5
    `,
    fix: ["self.tokens += amount", "self.tokens = min(self.capacity, self.tokens + amount)"],
  },
  {
    name: "lru", // a call the sibling method makes: a hit is not marked recent
    family: "missing-call",
    source: lru,
    lines: [lineOf(lru, "return value")],
    test: `
      from prog.lru import Cache
      def test_hit_is_recent():
          c = Cache()
          c.put("a", 1)
          c.put("b", 2)
          c.get("a")
          assert c.oldest() == "b"
    `,
    fix: ["        return value\n", "        self.data.move_to_end(key)\n        return value\n"],
  },
];

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", fixes);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("repair candidates that add or rewrite statements", () => {
  for (const c of fixes) {
    it(`${c.family}: proposes the fix for prog/${c.name}.py, which makes its test pass`, async () => {
      const all = await bench.expectFixed(c);
      await bench.expectAllParse(c.source, all);
    });
  }
});
