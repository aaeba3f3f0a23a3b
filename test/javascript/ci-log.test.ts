import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJsCiLog } from "../../src/lang/javascript/ci-log.js";

// GitHub Actions job logs of the four runners as they print them (timestamps, ANSI colours,
// absolute paths of the hosted runner's checkout), read into test ids `<file>::<suite> > <test>`.
const log = (name: string) =>
  readFileSync(new URL(`../fixtures/js-ci-logs/${name}`, import.meta.url), "utf8");

describe("failing JavaScript tests from a CI log", () => {
  it("reads Jest's failure headers, with a suite that failed to run as its file", () => {
    const facts = parseJsCiLog(log("jest.log"));
    expect(facts.failingTests).toEqual([
      "test/cart.test.js::Cart > discounts > applies the percent-off rule before the coupon",
      "test/cart.test.js::Cart > rejects a negative quantity",
      "test/shipping.test.js",
    ]);
    expect(facts.tests).toEqual(facts.failingTests.slice(0, 2));
    expect(facts.excerpt).toContain("Received: 1799");
    expect(facts.excerpt.split("\n")[0]).toBe("PASS test/catalog.test.js");
  });

  it("reads Vitest's summary through its colours, a project's name and a file that failed whole", () => {
    const facts = parseJsCiLog(log("vitest.log"));
    expect(facts.failingTests).toEqual([
      "test/recurring.test.ts",
      "test/slots.test.ts::freeSlots > keeps the buffer after a booking",
      "test/month.test.ts::monthView > starts on a Monday",
    ]);
    expect(facts.tests).toHaveLength(2);
    expect(facts.excerpt).not.toContain("\u001b");
  });

  it("reads Mocha's failure list, the file from the stack, a hook's failure as its file", () => {
    const facts = parseJsCiLog(log("mocha.log"));
    expect(facts.failingTests).toEqual([
      "test/tokenize.test.js::tokenize > keeps a quoted comma inside its field",
      "test/tokenize.test.js::tokenize > quotes > unescapes a doubled quote",
      "test/schema.test.js",
    ]);
    expect(facts.tests).toHaveLength(2);
  });

  it("reads node:test's TAP: nested suites, a file that failed to load, Node 22's top-level tests", () => {
    const facts = parseJsCiLog(log("node-tap.log"));
    expect(facts.failingTests).toEqual([
      "test/bus.test.js::EventBus > stops after off()",
      "test/broken.test.js",
      "test/emit.test.mjs::a top-level test in node 22",
    ]);
    expect(facts.tests).toEqual([
      "test/bus.test.js::EventBus > stops after off()",
      "test/emit.test.mjs::a top-level test in node 22",
    ]);
  });

  it("reads node:test's spec reporter, the suites from its tree", () => {
    const facts = parseJsCiLog(log("node-spec.log"));
    expect(facts.failingTests).toEqual([
      "test/router.test.js::Router > params > decodes an encoded segment",
      "test/url.test.js::builds a url from a route",
    ]);
  });

  it("finds nothing in a green run or a log of another language, and shows no excerpt", () => {
    const green = [
      "2026-11-30T10:02:13.0100000Z PASS test/catalog.test.js",
      "2026-11-30T10:02:13.5000000Z Tests:       16 passed, 16 total",
      "2026-11-30T10:02:13.5000000Z FAILED tests/test_x.py::test_y - assert 1 == 2",
    ].join("\n");
    expect(parseJsCiLog(green)).toEqual({ failingTests: [], tests: [], excerpt: "" });
    expect(parseJsCiLog("")).toEqual({ failingTests: [], tests: [], excerpt: "" });
  });

  it("cuts a long excerpt and marks the cut", () => {
    const lines = ["FAIL test/a.test.js", "  ● a › b", ...Array.from({ length: 100 }, (_, i) => `line ${i}`)];
    const facts = parseJsCiLog(lines.join("\n"), 10);
    expect(facts.failingTests).toEqual(["test/a.test.js::a > b"]);
    expect(facts.excerpt.split("\n")).toHaveLength(11);
    expect(facts.excerpt).toMatch(/\[\.\.\. log cut \.\.\.\]$/);
  });
});
