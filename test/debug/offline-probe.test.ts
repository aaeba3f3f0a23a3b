import { describe, expect, it } from "vitest";
import { probeExpression } from "../../src/debug/offline.js";

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
