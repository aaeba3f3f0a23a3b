import { describe, expect, it } from "vitest";
import { candidatesFor } from "../../src/lang/javascript/candidates/index.js";
import type { JsCandidateRequest } from "../../src/lang/javascript/candidates/types.js";
import { evidenceFrom, type FailureOutput } from "../../src/lang/javascript/evidence/index.js";
import { dedent, edited, expectSound, lineOf, passes } from "./harness.js";

function request(
  path: string,
  text: string,
  at: string,
  extra: Partial<JsCandidateRequest> = {},
): JsCandidateRequest {
  const source = dedent(text);
  return { path, source, lines: [lineOf(source, at)], ...extra };
}

const first = (r: JsCandidateRequest) => candidatesFor(r).candidates[0];

describe("the failure's evidence ranks the candidates it points at first", () => {
  const ranked = (r: JsCandidateRequest, output: FailureOutput) => {
    const evidence = evidenceFrom({
      ...output,
      ...(output.at ? { at: { ...output.at, source: r.source } } : {}),
    });
    return candidatesFor({ ...r, evidence }).candidates;
  };

  it("a property read on undefined at a line: `?.` on that very expression", () => {
    const r = request(
      "src/label.js",
      "export function label(order) {\n  return order.customer.name.toUpperCase();\n}\n",
      "order.customer",
    );
    const plain = first(r)!;
    expect(edited(r.source, plain)).not.toContain("order.customer?.name");
    const top = ranked(r, {
      text: "TypeError: Cannot read properties of undefined (reading 'name')",
      at: { file: "src/label.js", line: 2 },
    })[0]!;
    expect(top.family).toBe("optional-chaining");
    expect(edited(r.source, top)).toContain("order.customer?.name");
    expect(top.because).toMatch(/`order\.customer` was `undefined`/);
    // The same error thrown in another file points at nothing here.
    const elsewhere = ranked(r, {
      text: "TypeError: Cannot read properties of undefined (reading 'name')",
      at: { file: "src/other.js", line: 2 },
    });
    expect(elsewhere[0]?.edits).toEqual(plain.edits);
  });

  it("a promise received: the missing await", () => {
    const r = request(
      "src/load.js",
      "async function fetchUser() {\n  return { id: 1 };\n}\nexport async function load() {\n  const user = fetchUser();\n  return user.id > 0 ? user : null;\n}\n",
      "const user",
    );
    const top = ranked(r, {
      text: 'expect(received).toEqual(expected)\n\nExpected: {"id": 1}\nReceived: Promise {}',
    })[0]!;
    expect([top.family, edited(r.source, top).includes("await fetchUser()")]).toEqual([
      "missing-await",
      true,
    ]);
  });

  it("digits joined as text: Number(...) around +'s operands", () => {
    const r = request(
      "src/sum.js",
      "export function sum(form) {\n  const a = form.a.value;\n  return a + form.b.value;\n}\n",
      "return a +",
    );
    const top = ranked(r, {
      text: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n'12' !== 3\n",
    })[0]!;
    expect(top.family).toBe("string-concatenation");
    expect(top.because).toMatch(/digits joined as text/);
  });

  it("numbers sorted as strings: a numeric comparator", () => {
    const r = request("src/rank.ts", "export const rank = (xs: number[]) => xs.slice().sort();\n", "sort");
    const top = ranked(r, { text: "AssertionError: expected [ 1, 10, 2 ] to deeply equal [ 1, 2, 10 ]" })[0]!;
    expect([top.family, top.features.after]).toEqual(["sort-comparator", "(a, b) => a - b"]);
  });

  it("a constant assigned to: let", () => {
    const r = request(
      "src/count.js",
      "export function count(xs) {\n  const n = 0;\n  for (const x of xs) if (x) n++;\n  return n;\n}\n",
      "n++",
    );
    expect(ranked(r, { message: "TypeError: Assignment to constant variable." })[0]?.family).toBe(
      "block-scope",
    );
  });

  it("a name never declared: the declared name that looks like it", () => {
    const r = request(
      "src/double.js",
      "export function double(total, other) {\n  return totl * 2 + other;\n}\n",
      "totl",
    );
    const top = ranked(r, { message: "ReferenceError: totl is not defined" })[0]!;
    expect([top.family, top.features.after]).toEqual(["changed-identifier", "total"]);
  });

  it("an empty reduce: an initial value", () => {
    const r = request(
      "src/sum.ts",
      "export const sum = (xs: number[]) => xs.reduce((a, b) => a + b);\n",
      "reduce",
    );
    expect(ranked(r, { message: "TypeError: Reduce of empty array with no initial value" })[0]?.family).toBe(
      "reduce-initial",
    );
  });
});

describe("module systems and dialects", () => {
  const cases: [string, string, string, string][] = [
    [
      "src/a.ts",
      "export function f(xs: number[]): number {\n  return xs[xs.length];\n}\n",
      "xs.length",
      "return m.f([1, 2]) === 2;",
    ],
    [
      "src/a.tsx",
      "export const Count = ({ n }: { n: number }) => <b>{n < 1 ? 'none' : n}</b>;\nexport const f = (n: number) => n < 1;\n",
      "export const f",
      "return m.f(1) === true;",
    ],
    [
      "src/a.mjs",
      "export const f = async (x) => {\n  await null;\n  return x > 1;\n};\n",
      "return x > 1",
      "return (await m.f(1)) === true;",
    ],
    [
      "src/a.cjs",
      "function f(x) {\n  return x > 1;\n}\nmodule.exports = { f };\n",
      "return x > 1",
      "return m.f(1) === true;",
    ],
    [
      "src/a.jsx",
      "export function App({ ok }) {\n  return ok ? <p>yes</p> : null;\n}\nexport const f = (x) => x > 1;\n",
      "export const f",
      "return m.f(1) === true;",
    ],
  ];
  it.each(cases)("%s: candidates are valid code and one fixes the bug", async (path, source, at, check) => {
    const r: JsCandidateRequest = { path, source, lines: [lineOf(source, at)] };
    const { candidates, problem } = candidatesFor(r);
    expect(problem).toBeUndefined();
    expectSound(r, candidates);
    const fixes = [];
    for (const c of candidates) if (await passes(path, edited(source, c), check)) fixes.push(c);
    expect(fixes.length).toBeGreaterThan(0);
  });

  it("adds top-level await only in an ES module", () => {
    const esm = request(
      "src/m.mjs",
      "async function load() {\n  return 1;\n}\nexport const value = load();\n",
      "export const value",
    );
    expect(candidatesFor(esm).candidates.some((c) => c.family === "missing-await")).toBe(true);
    const cjs = request(
      "src/m.cjs",
      "async function load() {\n  return 1;\n}\nexports.value = load();\n",
      "exports.value",
    );
    expect(candidatesFor(cjs).candidates.some((c) => c.family === "missing-await")).toBe(false);
  });

  it("puts ?? in parentheses beside || and &&, which it may not be mixed with", () => {
    const r = request("src/o.js", "export const pick = (a, b, c) => a && b || c;\n", "a && b");
    const c = candidatesFor(r).candidates.find((x) => x.family === "nullish-coalescing")!;
    expect(edited(r.source, c)).toContain("(a && b) ?? c");
    expectSound(r, [c]);
  });

  it("makes the function async when it adds an await inside a plain function", () => {
    const r = request(
      "src/s.js",
      "async function get() {\n  return 2;\n}\nexport function twice() {\n  const v = get();\n  return v * 2;\n}\n",
      "const v",
    );
    const c = candidatesFor(r).candidates.find((x) => x.family === "missing-await")!;
    expect(edited(r.source, c)).toContain("export async function twice() {");
    expect(c.edits).toHaveLength(2);
  });
});

describe("requests", () => {
  const source = dedent(`
    export function a(x) {
      return x < 1;
    }
    export function b(y) {
      return y > 2;
    }
  `);

  it("groups candidates by suspect line in the order asked, each line's likeliest first", () => {
    const { candidates } = candidatesFor({ path: "src/ab.js", source, lines: [5, 2] });
    const suspects = candidates.map((c) => c.suspect);
    expect(suspects[0]).toBe(5);
    expect(suspects.lastIndexOf(5)).toBeLessThan(suspects.indexOf(2));
    for (const line of [5, 2]) {
      const priors = candidates.filter((c) => c.suspect === line).map((c) => c.prior);
      expect(priors).toEqual([...priors].sort((p, q) => p - q));
    }
  });

  it("keeps the budget per line, and a span covers every statement in it", () => {
    expect(candidatesFor({ path: "src/ab.js", source, lines: [2], budget: 2 }).candidates).toHaveLength(2);
    const span = candidatesFor({ path: "src/ab.js", source, span: { start: 4, end: 6 } }).candidates;
    expect(span.length).toBeGreaterThan(0);
    expect(span.every((c) => c.line >= 4 && c.line <= 6)).toBe(true);
  });

  it("fills the features: node, statement, function, names, before and after, edits", () => {
    const c = candidatesFor({ path: "src/ab.js", source, lines: [2] }).candidates[0]!;
    expect(c.features).toMatchObject({
      node: "BinaryExpression",
      statement: "ReturnStatement",
      function: "a",
      inLoop: false,
      edits: 1,
    });
    expect(c.features.before).toBe("<");
    expect(c).toMatchObject({ file: "src/ab.js", suspect: 2, line: 2 });
  });

  it("gives nothing, with a reason, for a line with no statement and for unparsable or hostile input", () => {
    expect(candidatesFor({ path: "src/ab.js", source, lines: [99] }).candidates).toEqual([]);
    const broken = candidatesFor({ path: "src/x.ts", source: "function f( {\n  return 1;\n}\n", lines: [2] });
    expect([broken.candidates, broken.problem]).toEqual([
      [],
      expect.stringMatching(/^src\/x\.ts does not parse: .*\(line \d+\)$/),
    ]);
    expect(candidatesFor({ path: "notes.txt", source: "x", lines: [1] }).problem).toMatch(/not a JavaScript/);
    expect(
      candidatesFor({ path: "d.js", source: `x = ${"[".repeat(4000)}${"]".repeat(4000)};`, lines: [1] })
        .problem,
    ).toMatch(/nest too deeply/);
    const typeScriptInJs = candidatesFor({ path: "src/t.js", source: "let a: number = 1;\n", lines: [1] });
    expect(typeScriptInJs.problem).toMatch(/Type annotations can only be used in TypeScript files/);
  });

  it("reads a large file and weird unicode without trouble", () => {
    const unit = (i: number) =>
      `export function f${i}(xs) {\n  let s = 0;\n  for (let i = 0; i <= xs.length; i++) s += xs[i] ?? 0;\n  return s;\n}\n`;
    const big = Array.from({ length: 1500 }, (_, i) => unit(i)).join("");
    const line = 5 * 1200 + 3;
    const result = candidatesFor({ path: "src/big.js", source: big, lines: [line], budget: 10 });
    expect(result.problem).toBeUndefined();
    expect(result.candidates.length).toBe(10);
    expect(result.candidates[0]!.features.function).toBe("f1200");
    const weird = "\uFEFFexport const größe = (ä) => ä < 1 ? '😀\u2028' : 'x';\r\n";
    const w = candidatesFor({ path: "src/w.js", source: weird, lines: [1] });
    expect(w.problem).toBeUndefined();
    expectSound({ path: "src/w.js", source: weird, lines: [1] }, w.candidates);
    expect(w.candidates.some((c) => edited(weird, c).includes("ä <= 1"))).toBe(true);
  });
});
