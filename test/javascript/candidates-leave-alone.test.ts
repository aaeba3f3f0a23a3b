import { describe, expect, it } from "vitest";
import { candidatesFor } from "../../src/lang/javascript/candidates/index.js";
import type { JsCandidateFamily, JsRepairCandidate } from "../../src/lang/javascript/candidates/types.js";
import { dedent, edited, expectSound, lineOf } from "./harness.js";

/** A program where a family applies nowhere (or only in a named way): what it must not propose. */
interface LeaveAlone {
  name: string;
  family: JsCandidateFamily;
  source: string;
  path?: string;
  at: string;
  /** When set, only candidates this returns true for are forbidden; else every one of the family. */
  forbidden?: (c: JsRepairCandidate, editedLine: string) => boolean;
}

const CASES: LeaveAlone[] = [
  {
    name: "a variable declared inside the loop is not accumulated",
    family: "changed-operator",
    source: `
      export function lastDoubled(xs: number[]): number {
        let out = 0;
        for (const x of xs) {
          let t = 0;
          t = x * 2;
          out = t;
        }
        return out;
      }
    `,
    at: "t = x * 2",
    forbidden: (c) => c.features.after === "+=",
  },
  {
    name: "commutative operands are not swapped",
    family: "swapped-operands",
    source: "export const f = (a: number, b: number) => a + b * a;\n",
    at: "a + b",
  },
  {
    name: "no ?? without || or ||=",
    family: "nullish-coalescing",
    source: "export const both = (a, b) => a && b;\n",
    at: "a && b",
  },
  {
    name: "no await on a method name that a synchronous method of the file also has",
    family: "missing-await",
    source: `
      export class Store {
        async load() {
          return 1;
        }
        size() {
          return 0;
        }
      }
      export class Cache {
        load() {
          return 2;
        }
        async warm(store) {
          const n = store.load();
          return n + store.size();
        }
      }
    `,
    path: "src/store.js",
    at: "const n = store.load()",
  },
  {
    name: "a slice without bounds has none to move",
    family: "slice-bounds",
    source: "export const copy = (xs: number[]) => xs.slice();\n",
    at: "xs.slice",
  },
  {
    name: "strict equality with null is the nullish family's",
    family: "strict-equality",
    source: "export const missing = (x) => x === null;\n",
    at: "x === null",
  },
  {
    name: "no optional chaining on globals, this or assignment targets",
    family: "optional-chaining",
    source: `
      export class Box {
        size = 0;
        grow(by) {
          this.size = Math.max(this.size, by);
        }
      }
    `,
    at: "this.size = Math.max",
  },
  {
    name: "no await for a function that returns no promise",
    family: "missing-await",
    source: `
      function compute(x) {
        return x * 2;
      }
      export async function run(x) {
        const y = compute(x);
        return y;
      }
    `,
    at: "compute(x);",
  },
  {
    name: "no second await, and none for a promise handed to Promise.all",
    family: "missing-await",
    source: `
      async function one() {
        return 1;
      }
      export async function both() {
        const a = await one();
        const [b] = await Promise.all([one()]);
        return a + b;
      }
    `,
    at: "await one()",
  },
  {
    name: "a var in a loop no closure captures stays a var",
    family: "block-scope",
    source: `
      export function sum(xs) {
        var total = 0;
        for (var i = 0; i < xs.length; i++) {
          total += xs[i];
        }
        return total;
      }
    `,
    at: "total += xs[i]",
  },
  {
    name: "a var read after its loop stays a var",
    family: "block-scope",
    source: `
      export function firstNegative(xs) {
        const seen = [];
        for (var i = 0; i < xs.length; i++) {
          seen.push(() => xs[i]);
          if (xs[i] < 0) break;
        }
        return i;
      }
    `,
    at: "seen.push",
  },
  {
    name: "a callback without this stays a function",
    family: "callback-this",
    source: `
      export class Sum {
        total(xs) {
          return xs.reduce(function (a, b) {
            return a + b;
          }, 0);
        }
      }
    `,
    at: "return a + b",
  },
  {
    name: "an arrow function that returns, or only assigns, keeps its braces",
    family: "arrow-body",
    source: `
      export function run(xs) {
        let total = 0;
        xs.forEach((x) => { total += x; });
        return xs.map((x) => { return x + total; });
      }
    `,
    at: "xs.forEach",
  },
  {
    name: "a function that returns needs no return",
    family: "missing-return",
    source: `
      export function evens(xs) {
        const out = [];
        for (const x of xs) if (x % 2 === 0) out.push(x);
        return out;
      }
    `,
    at: "out.push",
  },
  {
    name: "a constructor never returns",
    family: "missing-return",
    source: `
      export class Point {
        constructor(x, y) {
          const p = { x, y };
          Object.assign(this, p);
        }
      }
    `,
    at: "Object.assign",
  },
  {
    name: "a synchronous forEach stays",
    family: "async-foreach",
    source: `
      export async function log(xs) {
        xs.forEach((x) => console.log(x));
      }
    `,
    at: "xs.forEach",
  },
  {
    name: "a numeric comparator is right",
    family: "sort-comparator",
    source: "export const sorted = (xs) => [...xs].sort((a, b) => a - b);\n",
    at: "sort(",
  },
  {
    name: "reduce with an initial value",
    family: "reduce-initial",
    source: "export const total = (xs) => xs.reduce((s, x) => s + x, 0);\n",
    at: "reduce",
  },
  {
    name: "indexOf(...) >= 0 tests found",
    family: "index-check",
    source: "export const has = (xs, x) => xs.indexOf(x) >= 0;\n",
    at: "indexOf",
  },
  {
    name: "typeof for a string is fine",
    family: "type-check",
    source: "export const isText = (v) => typeof v === 'string';\n",
    at: "typeof",
  },
  {
    name: "parseInt with a radix gets no radix",
    family: "number-parsing",
    source: "export const count = (s) => parseInt(s, 10);\n",
    at: "parseInt",
    forbidden: (_c, line) => /parseInt\(s, 10\)/.test(line) || /Number\(s\)/.test(line),
  },
  {
    name: "text joined to text, and numbers added, stay",
    family: "string-concatenation",
    source: `
      export function greet(name: string, n: number, m: number): string {
        const sum = n + m;
        return "Hello " + name + sum;
      }
    `,
    at: "const sum",
  },
  {
    name: "for...of over an array and for...in over an object stay",
    family: "object-iteration",
    source: `
      export function walk(xs: number[], o: Record<string, number>) {
        const seen = { a: 1 };
        for (const x of xs) console.log(x);
        for (const k in seen) console.log(k);
      }
    `,
    at: "for (const x of xs)",
  },
  {
    name: "a loose null check is right",
    family: "nullish-check",
    source: "export const none = (x) => x == null;\n",
    at: "x == null",
  },
  {
    name: "no string slice is spliced",
    family: "wrong-method",
    source: "export const head = (s: string) => s.slice(0, 1);\n",
    at: "s.slice",
  },
  {
    name: "the same argument twice is not swapped",
    family: "swapped-arguments",
    source: "export const square = (f, a) => f(a, a);\n",
    at: "f(a, a)",
  },
  {
    name: "while (true) is meant",
    family: "negated-condition",
    source: "export function spin() {\n  let n = 0;\n  while (true) {\n    if (++n > 3) return n;\n  }\n}\n",
    at: "while (true)",
  },
  {
    name: "import paths, require paths and directives are no constants",
    family: "changed-literal",
    path: "src/mod.js",
    source: `
      "use strict";
      const fs = require("fs");
      import { x } from "./x.js";
      export const y = x;
    `,
    at: "require",
  },
  {
    name: "a string key is not off by one, nor an object's string key",
    family: "off-by-one",
    source: `
      export function get(o: Record<string, number>, key: string) {
        return o["total"] + o[key];
      }
    `,
    at: "return o",
  },
  {
    name: "no function, import or class is swapped for a variable, nor a constant assigned",
    family: "changed-identifier",
    source: `
      import { helper } from "./helper.js";
      const LIMIT = 3;
      function other() {
        return 1;
      }
      export function run(n: number) {
        let count = helper(n);
        count = n;
        return count + other();
      }
    `,
    at: "count = n",
    forbidden: (c) =>
      ["helper", "other", "run"].includes(c.features.after) ||
      (c.features.before === "count" && c.features.after === "LIMIT"),
  },
  {
    name: "nothing known about the object: no property is guessed",
    family: "changed-attribute",
    source: "export const size = (thing) => thing.size;\n",
    at: "thing.size",
  },
];

describe("families stay quiet where they do not apply", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const path = c.path ?? "src/case.ts";
    const source = dedent(c.source);
    const request = { path, source, lines: [lineOf(source, c.at)] };
    const result = candidatesFor(request);
    expect(result.problem).toBeUndefined();
    expectSound(request, result.candidates);
    const bad = result.candidates.filter((cand) => {
      if (cand.family !== c.family) return false;
      if (!c.forbidden) return true;
      const line = edited(source, cand).split("\n")[cand.line - 1] ?? "";
      return c.forbidden(cand, line);
    });
    expect(bad.map((b) => b.claim)).toEqual([]);
  });
});
