import { afterAll, beforeAll, describe, it } from "vitest";
import { CandidateBench, dedent, lineOf, type FixCase } from "./candidates-harness.js";

// Call and condition families: each fixes a small program of its own (host Python, local sandbox).

const settings = dedent(`
  def parse_line(line):
      key, value = line.split("=")
      return key.strip(), value.strip()
`);

const escapes = dedent(`
  ESCAPES = {"\\n": "\\\\n", "\\t": "\\\\t"}


  def unescape(text):
      for char, escape in ESCAPES.items():
          text = text.replace(char, escape)
      return text
`);

const slug = dedent(`
  import re


  def slug(title):
      return re.sub(r"[^a-z0-9]+", "-", title.lower(), re.IGNORECASE).strip("-")
`);

const lots = dedent(`
  from collections import deque


  def consume(lots, wanted):
      lots = deque(lots)
      taken = []
      while wanted > 0 and lots:
          size = lots[0]
          use = min(size, wanted)
          taken.append(use)
          wanted -= use
          if use == size:
              lots.pop()
          else:
              lots[0] = size - use
      return taken, list(lots)
`);

const ranking = dedent(`
  def top_scores(scores, n):
      ordered = sorted(scores)
      return ordered[:n]
`);

const active = dedent(`
  def visible(user):
      if user.get("active") and user.get("verified"):
          return True
      return False
`);

const pages = dedent(`
  def page_numbers(count):
      return [n for n in range(count)]
`);

const invoice = dedent(`
  class Invoice:
      def __init__(self, number, issued, due):
          self.number = number
          self.issued = issued
          self.due = due


  def header(invoice):
      return "Invoice %s due %s" % (invoice.number, invoice.issued)
`);

const blank = dedent(`
  def blank_count(lines):
      count = 0
      for line in lines:
          if line.strip():
              count += 1
      return count
`);

const fixes: FixCase[] = [
  {
    name: "settings",
    family: "missing-argument",
    source: settings,
    lines: [lineOf(settings, 'line.split("=")')],
    fix: ['line.split("=")', 'line.split("=", 1)'],
    test: `
      from prog.settings import parse_line
      def test_value_with_equals():
          assert parse_line("url = a=b") == ("url", "a=b")
    `,
  },
  {
    name: "escapes",
    family: "swapped-arguments",
    source: escapes,
    lines: [lineOf(escapes, "text.replace(char, escape)")],
    fix: ["text.replace(char, escape)", "text.replace(escape, char)"],
    test: `
      from prog.escapes import unescape
      def test_newline():
          assert unescape("a\\\\nb") == "a\\nb"
    `,
  },
  {
    name: "slug",
    family: "extra-argument",
    source: slug,
    lines: [lineOf(slug, "re.sub")],
    fix: [", re.IGNORECASE)", ")"],
    test: `
      from prog.slug import slug
      def test_many_separators():
          assert slug("A b c d e") == "a-b-c-d-e"
    `,
  },
  {
    name: "lots",
    family: "wrong-function",
    source: lots,
    lines: [lineOf(lots, "lots.pop()")],
    fix: ["lots.pop()", "lots.popleft()"],
    test: `
      from prog.lots import consume
      def test_oldest_first():
          assert consume([2, 5], 4) == ([2, 2], [3])
    `,
  },
  {
    name: "ranking",
    family: "missing-argument",
    source: ranking,
    lines: [lineOf(ranking, "sorted(scores)")],
    fix: ["sorted(scores)", "sorted(scores, reverse=True)"],
    test: `
      from prog.ranking import top_scores
      def test_top_two():
          assert top_scores([3, 9, 1, 7], 2) == [9, 7]
    `,
  },
  {
    name: "active",
    family: "over-specific-condition",
    source: active,
    lines: [lineOf(active, "if user.get")],
    fix: [' and user.get("verified")', ""],
    test: `
      from prog.active import visible
      def test_unverified_but_active():
          assert visible({"active": True})
      def test_inactive():
          assert not visible({"verified": True})
    `,
  },
  {
    name: "pages",
    family: "off-by-one",
    source: pages,
    lines: [lineOf(pages, "range(count)")],
    fix: ["range(count)", "range(1, count + 1)"],
    test: `
      from prog.pages import page_numbers
      def test_three():
          assert page_numbers(3) == [1, 2, 3]
    `,
  },
  {
    name: "invoice",
    family: "changed-attribute",
    source: invoice,
    lines: [lineOf(invoice, "invoice.issued)")],
    fix: ["invoice.issued)", "invoice.due)"],
    test: `
      from prog.invoice import Invoice, header
      def test_header_shows_due_date():
          assert header(Invoice(7, "2024-01-01", "2024-01-31")) == "Invoice 7 due 2024-01-31"
    `,
  },
  {
    name: "blank",
    family: "negated-condition",
    source: blank,
    lines: [lineOf(blank, "if line.strip()")],
    fix: ["if line.strip()", "if not line.strip()"],
    test: `
      from prog.blank import blank_count
      def test_blank():
          assert blank_count(["a", "  ", ""]) == 2
    `,
  },
];

let bench: CandidateBench;
beforeAll(async () => {
  bench = await CandidateBench.create("local", fixes);
});
afterAll(async () => {
  await bench?.dispose();
});

describe("repair candidates for calls and conditions", () => {
  for (const c of fixes) {
    it(`${c.family}: proposes the fix for prog/${c.name}.py, which makes its test pass`, async () => {
      const all = await bench.expectFixed(c);
      await bench.expectAllParse(c.source, all);
    });
  }
});
