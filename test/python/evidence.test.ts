import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";

// hypofix_evidence.py through the runtime: real pytest (host Python, local sandbox) on
// test/fixtures/evidence-shop, whose tests each fail in one way the evidence should describe.

const repo = fileURLToPath(new URL("../fixtures/evidence-shop", import.meta.url));
const test = (name: string) => `tests/test_shop.py::${name}`;

describe("the evidence of a failing test (local sandbox, real pytest)", () => {
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    sandbox = await createSandbox("local", testOptions(repo));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(async () => sandbox?.dispose());

  it("names the keys a mapping held at a KeyError, the closest first", async () => {
    const ev = await runtime.evidence(test("test_contact"));
    expect(ev?.exception).toMatchObject({ type: "KeyError", message: "'mail'" });
    expect(ev?.key).toEqual({
      key: "'mail'",
      container: "user",
      keys: ["'email'", "'name'"],
      close: ["'email'"],
    });
    expect(ev?.comparison).toBeNull();
  });

  it("names an object's attributes at an AttributeError", async () => {
    const ev = await runtime.evidence(test("test_label"));
    expect(ev?.attribute).toMatchObject({ name: "titel", type: "Cart" });
    expect(ev?.attribute?.close[0]).toBe("title");
    expect(ev?.attribute?.attributes).toEqual(expect.arrayContaining(["items", "title", "add", "label"]));
  });

  it("says how compared values differ: one item short, a day apart, the same items in another order", async () => {
    const total = await runtime.evidence(test("test_total"));
    expect(total?.comparison).toMatchObject({
      op: "==",
      left: "3",
      right: "6",
      relation: { delta: 3, ratio: 2 },
    });
    const due = await runtime.evidence(test("test_due"));
    expect(due?.comparison?.relation).toEqual({ days: 1 });
    const pick = await runtime.evidence(test("test_pick"));
    expect(pick?.comparison?.relation).toMatchObject({
      lengthDelta: 0,
      sameItems: true,
      missing: [],
      extra: [],
    });
  });

  it("lists the except clauses an exception went through, and where a re-raised one started", async () => {
    const load = await runtime.evidence(test("test_load"));
    expect(load?.exception?.type).toBe("ValueError");
    expect(load?.handlers).toEqual([{ file: "shop.py", line: 40, function: "load", types: "KeyError" }]);
    expect(load?.cause).toBeNull();
    const lookup = await runtime.evidence(test("test_lookup"));
    expect(lookup?.cause).toEqual({
      type: "KeyError",
      message: "'b'",
      file: "shop.py",
      line: 46,
      function: "lookup",
    });
  });

  it("sees a mutable default carried from one call to the next, and not in a test without one", async () => {
    const cart = await runtime.evidence(test("test_cart"));
    expect(cart?.carried).toEqual([
      { file: "shop.py", function: "add", line: 24, name: "seen", kind: "default", value: "[1]" },
    ]);
    expect((await runtime.evidence(test("test_total")))?.carried).toEqual([]);
  });

  it("reads the signature of what the failing line calls, and the lines asked for", async () => {
    const parse = await runtime.evidence(test("test_parse"), { lines: [{ file: "shop.py", line: 16 }] });
    expect(parse?.exception?.message).toContain("too many values to unpack");
    expect(parse?.signatures).toEqual([
      {
        file: "shop.py",
        line: 16,
        callee: "line.split",
        params: ["sep=None", "maxsplit=-1"],
        given: 1,
        keywords: [],
      },
    ]);
  });

  it("says what to print at each line asked for (the condition, the returned value, the names a call reads) and the values it had", async () => {
    const ev = await runtime.evidence(test("test_total"), {
      lines: [9, 10, 11, 12, 26].map((line) => ({ file: "shop.py", line })),
    });
    // The locals' types as the test first ran each line (a loop's variables from its second pass).
    const types = { i: "int", items: "list", t: "int" };
    expect(ev?.probes).toEqual([
      { file: "shop.py", line: 9, expr: null, computed: false, types: { items: "list" } },
      {
        file: "shop.py",
        line: 10,
        expr: "range(len(items) - 1)",
        computed: true,
        values: Array(3).fill({ value: "range(0, 2)" }),
        total: 3,
        types,
      },
      {
        file: "shop.py",
        line: 11,
        expr: "(t, items[i])",
        computed: false,
        values: [{ value: "(0, 1)" }, { value: "(1, 2)" }],
        total: 2,
        types,
      },
      {
        file: "shop.py",
        line: 12,
        expr: "t",
        computed: true,
        returned: "t",
        params: ["items"],
        values: [{ value: "3" }],
        total: 1,
        types,
      },
      // Never reached in this test: no values, and the engine asks the debugger instead.
      { file: "shop.py", line: 26, expr: "x", computed: false, values: [], total: 0 },
    ]);
  });

  it("gives the types of a method's self attributes, as `self.<name>`", async () => {
    const ev = await runtime.evidence(test("test_label"), { lines: [{ file: "shop.py", line: 30 }] });
    expect(ev?.probes[0]?.types).toEqual({ self: "Cart", "self.items": "list", "self.title": "str" });
  });
});
