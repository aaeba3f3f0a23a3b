import { describe, expect, it } from "vitest";
import { experimentTimeoutMs } from "../../src/debug/budget.js";
import {
  NO_EVIDENCE,
  STRONG,
  failureOnly,
  scoreCandidate,
  type CandidateFacts,
} from "../../src/debug/evidence.js";
import { progress } from "../../src/debug/progress.js";
import { breadthFirst, lineWeight, linesToTry } from "../../src/debug/schedule.js";
import { alikeFirst, copiesOf, sameReplacement } from "../../src/debug/offline/index.js";
import { editShape } from "../../src/debug/shape.js";
import type { FailureEvidence } from "../../src/lang/types.js";

const none = NO_EVIDENCE;

const facts = (line: string, after: string | undefined, added?: string, at = 5): CandidateFacts => ({
  file: "m.py",
  line: at,
  function: { name: "f", startLine: 3, endLine: 12 },
  family: "any",
  shape: editShape(line, after, added),
});

describe("editShape", () => {
  it("sees a number moved by one, a bound, a sign and a factor", () => {
    expect(editShape("    n = total - 1", "    n = total").plusMinusOne).toBe(true);
    expect(editShape("    for i in range(10):", "    for i in range(11):").plusMinusOne).toBe(true);
    expect(editShape("    for i in range(10):", "    for i in range(20):").plusMinusOne).toBe(false);
    expect(editShape("    if a < b:", "    if a <= b:").boundary).toBe(true);
    expect(editShape("    if a < b:", "    if a > b:").boundary).toBe(false);
    expect(editShape("    x = a + b", "    x = a - b").sign).toBe(true);
    expect(editShape("    x = a * b", "    x = a / b").factor).toBe(true);
    expect(editShape("    x = a * b", "    x = a + b").factor).toBe(false);
  });

  it("names the literal, the attribute and the call whose arguments change", () => {
    expect(editShape('    return user["mail"]', '    return user["email"]').literal).toEqual({
      old: "mail",
      new: "email",
    });
    expect(editShape("    return self.totl", "    return self.total").attribute).toEqual({
      old: "totl",
      new: "total",
    });
    expect(
      editShape('    k, v = line.split("=")', '    k, v = line.split("=", maxsplit=1)').arguments,
    ).toEqual({
      keywords: ["maxsplit"],
      callee: "line.split",
    });
    expect(editShape("    x = a + b", "    x = a - b").arguments).toBeUndefined();
    expect(editShape("    x = 1", undefined, "total = 0").inserted).toBe("total = 0");
  });
});

/** An AttributeError for `name` on a Cart with these attributes. */
const cartAttributeError = (
  name: string,
  owner: string,
  attributes: string[],
  close: string[],
): FailureEvidence => ({
  ...none,
  exception: {
    type: "AttributeError",
    message: `'Cart' object has no attribute '${name}'`,
    classes: ["AttributeError"],
  },
  attribute: { name, type: "Cart", owner, attributes, close },
});

describe("scoreCandidate", () => {
  const keyError: FailureEvidence = {
    ...none,
    exception: {
      type: "KeyError",
      message: "'mail'",
      classes: ["KeyError", "LookupError", "Exception", "BaseException", "object"],
    },
    key: { key: "'mail'", container: "user", keys: ["'email'", "'name'"], close: ["'email'"] },
  };

  it("puts the key the mapping held first, and says so", () => {
    const right = scoreCandidate(facts('    return user["mail"]', '    return user["email"]'), keyError);
    const wrong = scoreCandidate(facts('    return user["mail"]', '    return user["mai"]'), keyError);
    const other = scoreCandidate(facts('    return user["mail"]', '    return users["mail"]'), keyError);
    expect(right.score).toBeGreaterThanOrEqual(STRONG);
    expect(right.because).toContain("`'email'`");
    expect(wrong.score).toBeLessThan(STRONG);
    expect(other.score).toBe(0);
  });

  it("puts first the store whose key or attribute the failing code looked up under another name", () => {
    // The test read result["mail"]; the code stored it as "email".
    const store = scoreCandidate(
      facts('    result["email"] = address', '    result["mail"] = address'),
      keyError,
    );
    expect(store.score).toBeGreaterThanOrEqual(STRONG);
    expect(store.because).toContain("`email`");
    expect(
      scoreCandidate(facts('    result["other"] = 1', '    result["mail"] = 1'), keyError).score,
    ).toBeLessThan(STRONG);
    const attributeError = cartAttributeError("total", "cart", ["items", "totl"], ["totl"]);
    expect(
      scoreCandidate(facts("    self.totl = 0", "    self.total = 0"), attributeError).score,
    ).toBeGreaterThanOrEqual(STRONG);
    expect(
      scoreCandidate(facts("    self.count = 0", "    self.total = 0"), attributeError).score,
    ).toBeLessThan(STRONG);
  });

  it("puts an attribute the object has first", () => {
    const ev = cartAttributeError("totl", "self", ["items", "total"], ["total"]);
    expect(
      scoreCandidate(facts("    return self.totl", "    return self.total"), ev).score,
    ).toBeGreaterThanOrEqual(STRONG);
    expect(scoreCandidate(facts("    return self.totl", "    return self.tot"), ev).score).toBeLessThan(
      STRONG,
    );
  });

  it("favours ±1 edits when the compared values differ by one, and not when they differ by more", () => {
    const by = (delta: number): FailureEvidence => ({
      ...none,
      comparison: {
        op: "==",
        left: "5",
        right: String(5 + delta),
        leftType: "int",
        rightType: "int",
        relation: { delta },
      },
    });
    const plusOne = facts("    return n - 1", "    return n");
    const flip = facts("    return a + b", "    return a * b");
    expect(scoreCandidate(plusOne, by(1)).score).toBeGreaterThan(scoreCandidate(flip, by(1)).score);
    expect(scoreCandidate(plusOne, by(3)).score).toBe(0);
  });

  it("favours an edit of the except clause the raised exception went through uncaught", () => {
    const ev: FailureEvidence = {
      ...none,
      exception: {
        type: "ValueError",
        message: "bad",
        classes: ["ValueError", "Exception", "BaseException", "object"],
      },
      handlers: [{ file: "m.py", line: 5, function: "f", types: "KeyError" }],
    };
    const names = scoreCandidate(facts("    except KeyError:", "    except ValueError:"), ev);
    const elsewhere = scoreCandidate(
      { ...facts("    except KeyError:", "    except ValueError:"), line: 9 },
      ev,
    );
    expect(names.score).toBeGreaterThanOrEqual(STRONG);
    expect(elsewhere.score).toBe(0);
    const caught = {
      ...ev,
      handlers: [{ file: "m.py", line: 5, function: "f", types: "(KeyError, ValueError)" }],
    };
    expect(
      scoreCandidate(facts("    except (KeyError, ValueError):", "    except KeyError:"), caught).score,
    ).toBe(0);
  });

  it("favours raising, where the exception started, the type an except clause it went through catches", () => {
    const ev: FailureEvidence = {
      ...none,
      exception: { type: "ValueError", message: "too many", classes: ["ValueError", "Exception"] },
      handlers: [{ file: "orders.py", line: 30, function: "fulfil", types: "InsufficientStock" }],
    };
    const raise = (after: string) => ({
      ...facts('        raise ValueError(f"only {available}")', after, undefined, 12),
      family: "wrong-exception",
    });
    expect(
      scoreCandidate(raise("        raise InsufficientStock(sku, qty, available)"), ev).score,
    ).toBeGreaterThanOrEqual(STRONG);
    expect(scoreCandidate(raise('        raise KeyError(f"only {available}")'), ev).score).toBe(0);
  });

  it("favours a guard against a zero divisor on a division by zero, Decimal's included", () => {
    const guard = {
      ...facts("    x = a / n", undefined, "if not n:\n    continue"),
      family: "missing-guard",
    };
    for (const type of ["ZeroDivisionError", "decimal.InvalidOperation"]) {
      const ev = failureOnly({ type, message: "division" });
      expect(scoreCandidate(guard, ev).score).toBeGreaterThan(0);
    }
    expect(scoreCandidate(guard, failureOnly({ type: "KeyError", message: "'a'" })).score).toBe(0);
  });

  it("favours a reset of state carried from one call to the next", () => {
    const ev: FailureEvidence = {
      ...none,
      carried: [{ file: "m.py", function: "f", line: 3, name: "seen", kind: "default", value: "[1]" }],
    };
    expect(
      scoreCandidate(facts("def f(x, seen=[]):", "def f(x, seen=None):", undefined, 3), ev).score,
    ).toBeGreaterThanOrEqual(STRONG);
    expect(scoreCandidate(facts("    x = 1", undefined, "seen = []", 6), ev).score).toBeGreaterThanOrEqual(
      STRONG,
    );
    expect(scoreCandidate(facts("    x = 1", undefined, "other = []", 6), ev).score).toBe(0);
  });

  it("favours argument edits on a TypeError about arguments, and an initialisation on a NameError", () => {
    const typeError = failureOnly({
      type: "TypeError",
      message: "f() takes 2 positional arguments but 3 were given",
    });
    expect(scoreCandidate(facts("    f(a, b, c)", "    f(a, b)"), typeError).score).toBeGreaterThan(0);
    expect(scoreCandidate(facts("    x = a + b", "    x = a - b"), typeError).score).toBe(0);
    const nameError = failureOnly({ type: "NameError", message: "name 'total' is not defined" });
    expect(
      scoreCandidate(facts("    x = 1", undefined, "total = 0"), nameError).score,
    ).toBeGreaterThanOrEqual(STRONG);
    expect(scoreCandidate(facts("    x = 1", undefined, "count = 0"), nameError).score).toBe(0);
  });

  it("gives nothing without evidence", () => {
    expect(scoreCandidate(facts("    return n - 1", "    return n"), undefined)).toEqual({ score: 0 });
  });
});

describe("breadthFirst", () => {
  const item = (name: string, lineRank: number, prior: number, score = 0) => ({
    name,
    lineRank,
    prior,
    score,
  });

  it("tries every line's likeliest candidate before any line's second", () => {
    const order = breadthFirst([
      item("a1", 0, 0.9),
      item("a2", 0, 0.9),
      item("a3", 0, 0.9),
      item("b1", 1, 0.9),
      item("c1", 2, 0.9),
      item("c2", 2, 0.9),
    ]).map((i) => i.name);
    expect(order).toEqual(["a1", "b1", "c1", "a2", "c2", "a3"]);
  });

  it("keeps likelier tiers first, and puts what the evidence names before everything", () => {
    const order = breadthFirst([
      item("guess-top-line", 0, 0.2),
      item("flip-line-5", 5, 0.9),
      item("named-by-evidence", 9, 0.2, 100),
      item("flip-top-line", 0, 0.9),
    ]).map((i) => i.name);
    expect(order).toEqual(["named-by-evidence", "flip-top-line", "flip-line-5", "guess-top-line"]);
  });
});

describe("breadthFirst with line weights", () => {
  const item = (name: string, lineRank: number, prior: number, weight: number) => ({
    name,
    lineRank,
    prior,
    score: 0,
    weight,
  });

  it("gives a more suspicious line more rounds, and reaches its broad guesses before a weak line's late ones", () => {
    const order = breadthFirst([
      item("top-1", 0, 0.6, 1),
      item("top-2", 0, 0.6, 1),
      item("top-guess", 0, 0.3, 1),
      ...[1, 2, 3, 4, 5, 6].map((k) => item(`weak-${k}`, 1, 0.6, 0.25)),
    ]).map((i) => i.name);
    expect(order.slice(0, 4)).toEqual(["top-1", "weak-1", "top-2", "weak-2"]);
    expect(order.indexOf("top-guess")).toBeLessThan(order.indexOf("weak-4"));
  });

  it("weighs a line by its squared share of the top score, never under a quarter", () => {
    expect(lineWeight(0.58, 0.58)).toBe(1);
    expect(lineWeight(0.41, 0.58)).toBeCloseTo(0.5, 1);
    expect(lineWeight(0.05, 1)).toBe(0.25);
    expect(lineWeight(0.3, 0)).toBe(1);
  });
});

describe("linesToTry", () => {
  const lines = ["a", "b", "c", "d", "e", "f"];
  const ran = new Set(["b", "d", "f"]);

  it("puts the lines the judging test ran first, each group in suspiciousness order, each capped", () => {
    expect(linesToTry(lines, (l) => ran.has(l), 2, 1)).toEqual(["b", "d", "a"]);
    expect(linesToTry(lines, (l) => ran.has(l), 5, 5)).toEqual(["b", "d", "f", "a", "c", "e"]);
  });

  it("keeps the suspiciousness order when coverage does not say (undefined)", () => {
    expect(linesToTry(lines, () => undefined, 4, 10)).toEqual(["a", "b", "c", "d"]);
    expect(linesToTry(lines, (l) => (l === "a" ? false : undefined), 2, 1)).toEqual(["b", "c", "a"]);
  });
});

describe("alikeFirst", () => {
  const replace = (old: string, to: string, file = "a.py") => ({
    op: "REPLACE" as const,
    line: 3,
    file,
    old,
    new: to,
  });
  const item = (id: string, family: string, old: string, to: string, file?: string) => ({
    id,
    candidate: { family, edits: [replace(old, to, file)] },
  });

  it("puts the same replacement elsewhere first, then the same kind of mistake, else keeps the order", () => {
    const fix = { family: "changed-attribute", edits: [replace("issued", "due")] };
    const items = [
      item("op", "changed-operator", "<", "<="),
      item("attr", "changed-attribute", "total", "paid"),
      item("same", "changed-attribute", "issued", "due", "b.py"),
      item("op2", "changed-operator", ">", ">="),
    ];
    expect(alikeFirst(items, fix).map((i) => i.id)).toEqual(["same", "attr", "op", "op2"]);
  });
});

describe("copiesOf and sameReplacement", () => {
  const source = [
    "def check(route, rule):",
    "    prefix, rate = rule",
    "    window = self._window(route, rate)",
    "    return window",
    "def peek(route, rule):",
    "    prefix, rate = rule",
    "    return self._window(route, rate).remaining()",
    "def other(route):",
    "    return route",
  ].join("\n");
  const edit = { op: "REPLACE" as const, line: 3, file: "p.py", old: "route", new: "prefix" };

  it("finds the lines holding the replaced text with the same context, and edits them the same way", () => {
    expect(copiesOf(source, edit)).toEqual([
      { op: "REPLACE", line: 7, file: "p.py", old: "_window(route, rate)", new: "_window(prefix, rate)" },
    ]);
    expect(copiesOf(source, { ...edit, line: 9 })).toEqual([]);
    expect(copiesOf(source, { op: "ADD", line: 3, stmt: "x = 1" })).toEqual([]);
  });

  it("says whether two candidates replace the same text", () => {
    const at = (line: number, old: string, to: string) => ({ edits: [{ ...edit, line, old, new: to }] });
    expect(sameReplacement(at(3, "route", "prefix"), at(7, "route", "prefix"))).toBe(true);
    expect(sameReplacement(at(3, "route", "prefix"), at(7, "route", "rate"))).toBe(false);
  });
});

describe("experimentTimeoutMs", () => {
  it("is five times the slowest finished test plus start-up, at least 2 s", () => {
    const fast = { durationMs: 1_500, tests: [{ durationMs: 10 }, { durationMs: 40 }] };
    expect(experimentTimeoutMs(fast)).toBe(2_000 + 1_450);
    const slow = { durationMs: 3_000, tests: [{ durationMs: 800 }, { durationMs: 100 }] };
    expect(experimentTimeoutMs(slow)).toBe(5 * 800 + 2_100);
  });

  it("ignores a test that was stopped at its deadline, and stays under 30 s", () => {
    const hung = {
      durationMs: 61_000,
      tests: [{ durationMs: 60_000, failure: { type: "TestTimeout" } }, { durationMs: 20 }],
    };
    expect(experimentTimeoutMs(hung)).toBe(2_000 + 980);
    expect(experimentTimeoutMs({ durationMs: 100_000, tests: [{ durationMs: 50_000 }] })).toBe(30_000);
  });
});

describe("progress", () => {
  const failure = (type: string, message: string, testLine = 8) => ({
    type,
    message,
    frames: [
      { file: "tests/test_m.py", line: testLine, function: "test_m" },
      { file: "m.py", line: 3, function: "f" },
    ],
    text: "",
  });
  const before = failure("AssertionError", "assert -18 == 12");

  it("is clear when a later assertion fails, or the number is half as far or right up to its sign", () => {
    expect(progress(before, failure("AssertionError", "assert 1 == 2", 9), "tests/test_m.py")).toBe(2);
    expect(progress(before, failure("AssertionError", "assert 18 == 12"), "tests/test_m.py")).toBe(2);
    expect(progress(before, failure("AssertionError", "assert -12 == 12"), "tests/test_m.py")).toBe(2);
  });

  it("is slight for a nearer number or another exception, and none for a farther one or a broken program", () => {
    expect(progress(before, failure("AssertionError", "assert -10 == 12"), "tests/test_m.py")).toBe(1);
    expect(progress(before, failure("ValueError", "bad"), "tests/test_m.py")).toBe(1);
    expect(progress(before, failure("AssertionError", "assert -30 == 12"), "tests/test_m.py")).toBe(0);
    expect(progress(before, failure("AssertionError", "assert -18 == 12"), "tests/test_m.py")).toBe(0);
    expect(progress(before, failure("NameError", "name 'x' is not defined"), "tests/test_m.py")).toBe(0);
    expect(progress(before, undefined, "tests/test_m.py")).toBe(0);
  });
});
