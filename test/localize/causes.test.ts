import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { CoverageReport } from "../../src/lang/types.js";
import { sbfl, worstCaseRank } from "../../src/localize/sbfl.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// A price parser whose bug (partition on "," instead of ".") raises ValueError on a decimal
// price; two callers catch it and re-raise OrderError, one with `from e`, one implicitly. Every
// line of `to_cents` also runs in passing tests, while the re-raise lines run only in the failing
// ones, so the plain spectrum ranks the re-raise site above the fault. (Local sandbox: host pytest.)
const FILES: Record<string, string> = {
  "pytest.ini": "[pytest]\npythonpath = .\ntestpaths = tests\n",
  "shop/__init__.py": "",
  "shop/money.py": [
    "def to_cents(text):",
    '    units, _, cents = text.partition(",")',
    "    return int(units) * 100 + int((cents + '00')[:2])",
    "",
  ].join("\n"),
  "shop/orders.py": [
    "from shop.money import to_cents",
    "",
    "",
    "class OrderError(Exception):",
    "    pass",
    "",
    "",
    "def parse_line(line):",
    '    name, price = line.split(";")',
    "    try:",
    "        return name.strip(), to_cents(price.strip())",
    "    except ValueError as e:",
    '        raise OrderError(f"bad price in {line!r}") from e',
    "",
    "",
    "def parse_line_quietly(line):",
    '    name, price = line.split(";")',
    "    try:",
    "        return name.strip(), to_cents(price.strip())",
    "    except ValueError:",
    '        raise OrderError(f"bad price in {line!r}")',
    "",
    "",
    "def total_of(prices):",
    "    try:",
    "        return sum(to_cents(p) for p in prices)",
    "    except ValueError:",
    "        return sum(rounded_cents(p) for p in prices)",
    "",
    "",
    "def rounded_cents(text):",
    '    return round(float(text) * 100, "0")',
    "",
  ].join("\n"),
  "tests/test_shop.py": [
    "from shop.money import to_cents",
    "from shop.orders import parse_line, parse_line_quietly, total_of",
    "",
    "",
    "def test_whole_price():",
    '    assert to_cents("12") == 1200',
    "",
    "",
    "def test_whole_price_in_a_line():",
    '    assert parse_line("tea; 3") == ("tea", 300)',
    '    assert parse_line_quietly("tea; 3") == ("tea", 300)',
    "",
    "",
    "def test_decimal_price_in_a_line():",
    '    assert parse_line("tea; 3.50") == ("tea", 350)',
    "",
    "",
    "def test_decimal_price_in_a_line_quietly():",
    '    assert parse_line_quietly("tea; 3.50") == ("tea", 350)',
    "",
    "",
    "def test_decimal_price():",
    '    assert to_cents("3.50") == 350',
    "",
    "",
    "def test_whole_total():",
    '    assert total_of(["3", "4"]) == 700',
    "",
    "",
    "def test_decimal_total():",
    '    assert total_of(["3.50"]) == 350',
    "",
  ].join("\n"),
};

const T = "tests/test_shop.py::";
let repo: string;
let sandbox: Sandbox;
let coverage: CoverageReport;
beforeAll(async () => {
  ({ repo, sandbox } = await localTree("hypofix-causes-", FILES));
  coverage = await createPythonRuntime(sandbox).coverage();
});
afterAll(async () => {
  await sandbox?.dispose();
  await rm(repo, { recursive: true, force: true });
});

const ranking = (failing: string, followCauses: boolean) =>
  sbfl({ coverage, failingTests: [`${T}${failing}`], followCauses }).functions.map((f) => f.function);

describe("the coverage run records exception chains", () => {
  it("an explicit `raise ... from e` keeps the cause and its frames down to where it started", () => {
    const failure = coverage.failures?.[`${T}test_decimal_price_in_a_line`];
    expect(failure?.type).toBe("OrderError");
    expect(failure?.causes?.map((c) => c.type)).toEqual(["ValueError"]);
    expect(failure?.causes?.[0]?.frames.map((f) => [f.file, f.function, f.line])).toEqual([
      ["shop/orders.py", "parse_line", 11],
      ["shop/money.py", "to_cents", 3],
    ]);
  });

  it("says whether a link was explicit (`from e`) or implicit (raised while handling)", () => {
    const explicit = coverage.failures?.[`${T}test_decimal_price_in_a_line`]?.causes?.[0];
    const implicit = coverage.failures?.[`${T}test_decimal_price_in_a_line_quietly`]?.causes?.[0];
    expect([explicit?.explicit, implicit?.explicit]).toEqual([true, false]);
  });

  it("a failure raised where it started has no causes", () => {
    expect(coverage.failures?.[`${T}test_decimal_price`]?.causes).toBeUndefined();
  });
});

describe("sbfl follows causes, not raise sites", () => {
  it("`raise ... from e`: the faulty function was below the re-raise site and is now first", () => {
    expect(ranking("test_decimal_price_in_a_line", false)).toEqual(["parse_line", "to_cents"]);
    const result = sbfl({ coverage, failingTests: [`${T}test_decimal_price_in_a_line`] });
    expect(result.functions.map((f) => f.function)).toEqual(["to_cents", "parse_line"]);
    expect(result.functions[0]).toMatchObject({ rank: 1, file: "shop/money.py", line: 3 });
    expect(result.functions[0]?.reason).toContain(
      "ValueError started at line 3 and was re-raised as OrderError",
    );
    // The debugger's lines follow: the fault's lines first.
    expect(result.lines[0]).toMatchObject({ file: "shop/money.py", function: "to_cents" });
    // Its score stays the spectrum's (lower than the re-raise site's); ties are counted within its tier.
    expect(result.functions[0]!.score).toBeLessThan(result.functions[1]!.score);
    expect(worstCaseRank(result, result.functions[0]!)).toBe(1);
    const plain = sbfl({ coverage, failingTests: [`${T}test_decimal_price_in_a_line`], followCauses: false });
    expect(
      worstCaseRank(
        plain,
        plain.functions.find((f) => f.function === "to_cents")!,
      ),
    ).toBe(2);
  });

  it("an implicit `__context__` (raised while handling) is followed too", () => {
    expect(ranking("test_decimal_price_in_a_line_quietly", false)).toEqual([
      "parse_line_quietly",
      "to_cents",
    ]);
    expect(ranking("test_decimal_price_in_a_line_quietly", true)).toEqual(["to_cents", "parse_line_quietly"]);
  });

  it("an error raised deeper while handling another (not a re-raise) keeps its own raise site", () => {
    const failure = coverage.failures?.[`${T}test_decimal_total`];
    expect(failure?.type).toBe("TypeError");
    expect(failure?.causes?.map((c) => [c.type, c.explicit])).toEqual([["ValueError", false]]);
    const plain = sbfl({ coverage, failingTests: [`${T}test_decimal_total`], followCauses: false });
    const followed = sbfl({ coverage, failingTests: [`${T}test_decimal_total`] });
    expect(followed.causes).toEqual([]);
    expect(followed).toEqual({ ...plain, causes: [] });
    // Following the handled ValueError would have put to_cents first.
    expect(followed.functions[0]?.function).not.toBe("to_cents");
    expect(
      sbfl({ coverage, failingTests: [`${T}test_decimal_price_in_a_line_quietly`] }).functions[0]?.function,
    ).toBe("to_cents");
  });

  it("without a chain the ranking is the plain spectrum's, unchanged", () => {
    const plain = sbfl({ coverage, failingTests: [`${T}test_decimal_price`], followCauses: false });
    const followed = sbfl({ coverage, failingTests: [`${T}test_decimal_price`] });
    expect(followed.causes).toEqual([]);
    expect(followed).toEqual({ ...plain, causes: [] });
    expect(followed.functions.map((f) => f.function)).toEqual(["to_cents"]);
  });
});
