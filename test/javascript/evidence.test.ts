import { describe, expect, it } from "vitest";
import { evidenceFrom, toFailureEvidence } from "../../src/lang/javascript/evidence/index.js";
import { readValue } from "../../src/lang/javascript/evidence/values.js";

/** Failure texts as the runners print them (colours stripped where the runner adds them). */
const JEST_TOBE = [
  "expect(received).toBe(expected) // Object.is equality",
  "",
  "Expected: 5",
  "Received: 4",
  "",
  "    at Object.<anonymous> (test/cart.test.js:5:17)",
].join("\n");

const JEST_DIFF = [
  "expect(received).toEqual(expected) // deep equality",
  "",
  "- Expected  - 1",
  "+ Received  + 1",
  "",
  "  Array [",
  "    1,",
  "-   2,",
  "+   3,",
  "  ]",
  "",
  "    at Object.<anonymous> (test/a.test.js:9:20)",
].join("\n");

const JEST_OBJECT = [
  "expect(received).toEqual(expected) // deep equality",
  "",
  "- Expected  - 1",
  "+ Received  + 1",
  "",
  "  Object {",
  '-   "total": 10,',
  '+   "total": 9,',
  '    "items": 2,',
  "  }",
].join("\n");

const VITEST = [
  "AssertionError: expected 4 to be 5 // Object.is equality",
  "",
  "- Expected",
  "+ Received",
  "",
  "- 5",
  "+ 4",
  "",
  " ❯ test/a.test.ts:5:17",
].join("\n");

const MOCHA_CHAI = [
  "AssertionError: expected [ 1, 10, 2 ] to deeply equal [ 1, 2, 10 ]",
  "      + expected - actual",
  "",
  "       [",
  "         1",
  "      -  10",
  "         2",
  "      +  10",
  "       ]",
  "      at Context.<anonymous> (test/sort.test.js:7:28)",
].join("\n");

const NODE_STRICT = [
  "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
  "",
  "'12' !== 3",
  "",
  "    at TestContext.<anonymous> (file:///repo/test/sum.test.mjs:4:10)",
].join("\n");

const NODE_DEEP = [
  "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
  "+ actual - expected",
  "",
  "  {",
  "+   a: 1,",
  "-   a: 2,",
  "    b: 3",
  "  }",
].join("\n");

const NODE_TEST_YAML = [
  "not ok 1 - adds",
  "  ---",
  "  duration_ms: 0.5",
  "  failureType: 'testCodeFailure'",
  "  error: 'Expected values to be strictly equal:\\n\\n4 !== 5\\n'",
  "  code: 'ERR_ASSERTION'",
  "  expected: 5",
  "  actual: 4",
  "  operator: 'strictEqual'",
  "  ...",
].join("\n");

describe("comparisons, runner by runner", () => {
  it("Jest: Expected/Received", () => {
    const ev = evidenceFrom({ text: JEST_TOBE });
    expect(ev.comparison).toMatchObject({
      matcher: "toBe",
      expected: "5",
      received: "4",
      expectedType: "number",
    });
    expect(ev.comparison!.relation).toMatchObject({ delta: -1 });
  });

  it("Jest: a diff of arrays and of objects, with pretty-format's constructor names", () => {
    const arrays = evidenceFrom({ text: JEST_DIFF }).comparison!;
    expect([arrays.matcher, arrays.expectedType, arrays.receivedType]).toEqual(["toEqual", "array", "array"]);
    expect(arrays.relation).toMatchObject({ lengthDelta: 0, missing: ["2"], extra: ["3"] });
    const objects = evidenceFrom({ text: JEST_OBJECT }).comparison!;
    expect(objects.relation).toMatchObject({ missing: [], extra: [], changed: ["total"] });
  });

  it("Vitest: chai's message and its diff", () => {
    const ev = evidenceFrom({ text: VITEST });
    expect(ev.exception).toEqual({
      type: "AssertionError",
      message: "expected 4 to be 5 // Object.is equality",
      classes: ["AssertionError", "Error"],
    });
    expect(ev.comparison).toMatchObject({ expected: "5", received: "4", relation: { delta: -1 } });
  });

  it("Mocha with chai: numbers sorted as strings", () => {
    const c = evidenceFrom({ text: MOCHA_CHAI }).comparison!;
    expect(c.relation).toMatchObject({ sameItems: true, lexicalOrder: true });
    expect(c.received).toBe("[ 1, 10, 2 ]");
  });

  it("Mocha: the diff when chai's message cuts the values", () => {
    const text = [
      "AssertionError: expected [ Array(30) ] to deeply equal [ Array(30) ]",
      "      + expected - actual",
      "",
      "      -4",
      "      +5",
      "",
    ].join("\n");
    expect(evidenceFrom({ text }).comparison).toMatchObject({ expected: "5", received: "4" });
  });

  it("node:assert: strictEqual and deepStrictEqual; node:test's YAML fields", () => {
    const strict = evidenceFrom({ text: NODE_STRICT });
    expect(strict.comparison).toMatchObject({
      matcher: "strictEqual",
      expected: "3",
      received: "'12'",
      relation: { concatenated: true },
    });
    expect(strict.exception?.type).toBe("AssertionError");
    expect(evidenceFrom({ text: NODE_DEEP }).comparison).toMatchObject({
      matcher: "deepStrictEqual",
      relation: { changed: ["a"] },
    });
    expect(evidenceFrom({ text: NODE_TEST_YAML }).comparison).toMatchObject({
      matcher: "strictEqual",
      expected: "5",
      received: "4",
    });
  });

  it("structured fields win over the text (a reporter's expected/actual)", () => {
    const ev = evidenceFrom({
      message: "expected 1 to equal 2",
      expected: "'3'",
      actual: "3",
      operator: "strictEqual",
    });
    expect(ev.comparison).toMatchObject({ matcher: "strictEqual", relation: { numberVsString: true } });
  });

  it("colours are stripped", () => {
    const text =
      '\u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).\u001b[22mtoBe\u001b[2m(\u001b[22m\u001b[32mexpected\u001b[39m\u001b[2m)\u001b[22m\n\nExpected: \u001b[32m"b"\u001b[39m\nReceived: \u001b[31m"B"\u001b[39m';
    expect(evidenceFrom({ text }).comparison).toMatchObject({
      matcher: "toBe",
      relation: { caseOnly: true },
    });
  });

  it("a promise received where a value was expected, and undefined", () => {
    const promise = evidenceFrom({
      text: 'expect(received).toEqual(expected)\n\nExpected: {"id": 1}\nReceived: Promise {}',
    });
    expect(promise.comparison?.receivedType).toBe("promise");
    const nothing = evidenceFrom({
      text: "expect(received).toBe(expected)\n\nExpected: 3\nReceived: undefined",
    });
    expect(nothing.comparison?.receivedType).toBe("undefined");
  });

  it("no comparison where the text shows none", () => {
    expect(evidenceFrom({ text: "Error: boom\n    at x (a.js:1:1)" }).comparison).toBeNull();
    expect(evidenceFrom({}).exception).toBeNull();
  });
});

describe("JavaScript's own errors", () => {
  const source = "function label(order) {\n  const x = 1;\n  return order.customer.name.toUpperCase();\n}\n";

  it("a property read on undefined names the property and, with the line, the expression", () => {
    const ev = evidenceFrom({
      text: "TypeError: Cannot read properties of undefined (reading 'name')\n    at label (src/a.js:3:30)",
      at: { file: "src/a.js", line: 3, source },
    });
    expect(ev.access).toEqual({
      kind: "read",
      property: "name",
      of: "undefined",
      expression: "order.customer",
    });
    expect(ev.at).toEqual({ file: "src/a.js", line: 3 });
    expect(evidenceFrom({ message: "Cannot read property 'x' of null", type: "TypeError" }).access).toEqual({
      kind: "read",
      property: "x",
      of: "null",
    });
    expect(
      evidenceFrom({ message: "TypeError: Cannot set properties of undefined (setting 'y')" }).access?.kind,
    ).toBe("set");
    const destructure = evidenceFrom({
      message: "TypeError: Cannot destructure property 'id' of 'user' as it is undefined.",
    });
    expect(destructure.access).toEqual({
      kind: "destructure",
      property: "id",
      of: "undefined",
      expression: "user",
    });
  });

  it("an index read on undefined, and a destructuring on the line", () => {
    const src =
      "function f(rows, i) {\n  return rows[i][0];\n}\nfunction g(opts) {\n  const { id } = opts.user;\n}\n";
    expect(
      evidenceFrom({
        message: "TypeError: Cannot read properties of undefined (reading '0')",
        at: { file: "a.js", line: 2, source: src },
      }).access?.expression,
    ).toBe("rows[i]");
    expect(
      evidenceFrom({
        message: "TypeError: Cannot read properties of undefined (reading 'id')",
        at: { file: "a.js", line: 5, source: src },
      }).access?.expression,
    ).toBe("opts.user");
  });

  it("not a function, not defined, before initialization, assignment to a constant", () => {
    expect(evidenceFrom({ message: "TypeError: cart.totl is not a function" }).notCallable).toEqual({
      expression: "cart.totl",
      what: "function",
    });
    expect(evidenceFrom({ message: "TypeError: items is not iterable" }).notCallable?.what).toBe("iterable");
    expect(evidenceFrom({ message: "TypeError: Widget is not a constructor" }).notCallable?.what).toBe(
      "constructor",
    );
    expect(evidenceFrom({ message: "ReferenceError: totl is not defined" }).undefinedName).toBe("totl");
    expect(
      evidenceFrom({ message: "ReferenceError: Cannot access 'cfg' before initialization" }).uninitialized,
    ).toBe("cfg");
    expect(evidenceFrom({ message: "TypeError: Assignment to constant variable." }).constantAssigned).toBe(
      true,
    );
    // An assertion message that happens to say "is not defined" is no ReferenceError.
    expect(evidenceFrom({ message: "AssertionError: value is not defined" }).undefinedName).toBeNull();
  });

  it("maps to the Python side's FailureEvidence for the debug layer's ranking", () => {
    const ev = toFailureEvidence(evidenceFrom({ text: JEST_TOBE }));
    expect(ev.comparison).toMatchObject({ left: "4", right: "5", relation: { delta: -1 } });
    const notFn = toFailureEvidence(evidenceFrom({ message: "TypeError: cart.totl is not a function" }));
    expect(notFn.attribute).toMatchObject({ name: "totl", owner: "cart" });
    expect(notFn.exception?.type).toBe("TypeError");
  });
});

describe("values read back without evaluating", () => {
  it("reads Jest, util.inspect and chai forms", () => {
    expect(readValue('Object {"a": 1, "b": [1, 2]}').value).toEqual({ a: 1, b: [1, 2] });
    expect(readValue("{ a: 'x', b: undefined }").value).toEqual({ a: "x", b: undefined });
    expect(readValue("[ 1, -2, NaN ]").value).toEqual([1, -2, NaN]);
    expect(readValue("Array [\n  1,\n  2,\n]").value).toEqual([1, 2]);
    expect(readValue("[Function: total]").type).toBe("function");
    expect(readValue("Promise { <pending> }").type).toBe("promise");
  });

  it("never runs what it reads: calls and getters stay text", () => {
    const v = readValue("process.exit(1)");
    expect([v.known, v.type]).toEqual([false, "unknown"]);
    expect(readValue("{ get a() { throw new Error('x') } }").known).toBe(false);
    expect(readValue("x".repeat(30_000)).known).toBe(false);
  });
});
