import { describe, expect, it } from "vitest";
import { parameters, probeExpression, tupleItems } from "../../src/debug/offline.js";

describe("probeExpression", () => {
  it("prints the condition, returned value or right-hand side of a line", () => {
    expect(probeExpression("    if amount < available:", [])).toBe("amount < available");
    expect(probeExpression("        return year % 400 != 0", [])).toBe("year % 400 != 0");
    expect(probeExpression("    mid = (lo + hi) // 2", [])).toBe("(lo + hi) // 2");
    expect(probeExpression("    total += x", ["total", "x"])).toBe("(total, x)");
    expect(probeExpression("    for i in range(1, len(xs)):", [])).toBe("range(1, len(xs))");
  });

  it("prints the variables instead of calling what may change state", () => {
    expect(probeExpression("    item = queue.pop()", ["item", "queue"])).toBe("queue");
    expect(probeExpression("    save(record, path)", ["record", "path"])).toBe("(record, path)");
  });

  it("prints nothing for a literal assignment, whose target does not exist yet", () => {
    expect(probeExpression("    total = 0", ["total"])).toBeUndefined();
  });
});

describe("the offline engine's observed call", () => {
  it("splits a tuple's repr at its top-level commas only", () => {
    expect(tupleItems("(False, True, (50,))")).toEqual(["False", "True", "(50,)"]);
    expect(tupleItems(`('a, b', [1, (2, 3)], {'k': ")"})`)).toEqual(["'a, b'", "[1, (2, 3)]", `{'k': ")"}`]);
    expect(tupleItems("[The breakpoint line was not reached]")).toBeUndefined();
    expect(tupleItems("('unclosed, 1)")).toBeUndefined();
  });

  it("names a function's parameters without self, and gives up on *args", () => {
    const fn = { file: "m.py", qualname: "A.f", startLine: 1, endLine: 3 };
    expect(parameters(["def f(self, amount, limit: int = 3):", "    pass", ""], fn)).toEqual([
      "amount",
      "limit",
    ]);
    expect(parameters(["def f(", "    x,", "    y=(1, 2)):"], fn)).toBeUndefined();
    expect(parameters(["def f(*args):", "    pass", ""], fn)).toBeUndefined();
  });
});
