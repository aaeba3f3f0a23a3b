import { describe, expect, it } from "vitest";
import { JS_CANDIDATE_FAMILIES } from "../../src/lang/javascript/candidates/types.js";
import { dedent, edited, fixOf, type FixCase } from "./harness.js";

/**
 * One small buggy program per family: the family must propose the edit that makes the check
 * pass (run for real on our own fixture, after the edit), and every candidate must stay valid code.
 */
const CASES: FixCase[] = [
  {
    name: "bound",
    family: "changed-operator",
    source: `
      export function countUpTo(xs: number[], n: number): number {
        let count = 0;
        for (const x of xs) {
          if (x < n) count++;
        }
        return count;
      }
    `,
    at: "if (x < n)",
    check: "return m.countUpTo([1, 2, 3], 2) === 2;",
    fixedLine: "if (x <= n) count++;",
  },
  {
    name: "arithmetic",
    family: "changed-operator",
    source: `
      export const discounted = (price, discount) => price + discount;
    `,
    path: "src/arithmetic.js",
    at: "price + discount",
    check: "return m.discounted(10, 3) === 7;",
  },
  {
    name: "boolean",
    family: "changed-operator",
    source: `
      export function anyPositive(a: number, b: number): boolean {
        return a > 0 && b > 0;
      }
    `,
    at: "return a > 0",
    check: "return m.anyPositive(1, -1) === true && m.anyPositive(-1, -1) === false;",
  },
  {
    name: "accumulate",
    family: "changed-operator",
    source: `
      export function sum(xs) {
        let total = 0;
        for (const x of xs) {
          total = x;
        }
        return total;
      }
    `,
    path: "src/accumulate.js",
    at: "total = x",
    check: "return m.sum([1, 2, 3]) === 6;",
    fixedLine: "total += x;",
  },
  {
    name: "loose",
    family: "strict-equality",
    source: `
      export function isZero(x) {
        return x == 0;
      }
    `,
    path: "src/loose.js",
    at: "x == 0",
    check: "return m.isZero(0) === true && m.isZero('') === false;",
    fixedLine: "return x === 0;",
  },
  {
    name: "strict",
    family: "strict-equality",
    source: `
      export function byId(items, id) {
        return items.find((item) => item.id === id);
      }
    `,
    path: "src/strict.js",
    at: "item.id === id",
    check: "return m.byId([{ id: 3 }], '3')?.id === 3;",
  },
  {
    name: "last",
    family: "off-by-one",
    source: `
      export function last<T>(xs: T[]): T {
        return xs[xs.length];
      }
    `,
    at: "xs[xs.length]",
    check: "return m.last([1, 2, 3]) === 3;",
    fixedLine: "return xs[xs.length - 1];",
  },
  {
    name: "drop",
    family: "off-by-one",
    source: `
      export function firstN(xs: number[], n: number): number[] {
        const out: number[] = [];
        for (let i = 0; i < n - 1; i++) out.push(xs[i]);
        return out;
      }
    `,
    at: "i < n - 1",
    check: "return JSON.stringify(m.firstN([5, 6, 7], 2)) === '[5,6]';",
  },
  {
    name: "negated",
    family: "negated-condition",
    source: `
      export function label(ok: boolean): string {
        if (!ok) return "passed";
        return "failed";
      }
    `,
    at: "if (!ok)",
    check: "return m.label(true) === 'passed' && m.label(false) === 'failed';",
  },
  {
    name: "swapped",
    family: "swapped-arguments",
    source: `
      function divide(total, count) {
        return total / count;
      }
      export function average(xs) {
        const total = xs.reduce((a, b) => a + b, 0);
        const count = xs.length;
        return divide(count, total);
      }
    `,
    path: "src/swapped.js",
    at: "divide(count, total)",
    check: "return m.average([2, 4]) === 3;",
  },
  {
    name: "operands",
    family: "swapped-operands",
    source: `
      export const elapsed = (start: number, end: number) => start - end;
    `,
    at: "start - end",
    check: "return m.elapsed(2, 5) === 3;",
  },
  {
    name: "identifier",
    family: "changed-identifier",
    source: `
      export function area(width: number, height: number): number {
        return width * width;
      }
    `,
    at: "width * width",
    check: "return m.area(2, 3) === 6;",
  },
  {
    name: "attribute",
    family: "changed-attribute",
    source: `
      export class Person {
        first: string;
        last: string;
        constructor(first: string, last: string) {
          this.first = first;
          this.last = last;
        }
        initials(): string {
          return this.first[0] + this.lats[0];
        }
      }
    `,
    at: "this.lats",
    check: "return new m.Person('Ada', 'Lovelace').initials() === 'AL';",
  },
  {
    name: "literal",
    family: "changed-literal",
    source: `
      const ACTIVE = "active";
      export function isActive(user) {
        return user.status === "actve";
      }
      export const defaults = { status: ACTIVE };
    `,
    path: "src/literal.js",
    at: 'user.status === "actve"',
    check: "return m.isActive({ status: 'active' }) === true;",
  },
  {
    name: "returnExpression",
    family: "missing-return",
    source: `
      export function double(x: number): number {
        x * 2;
      }
    `,
    at: "x * 2",
    check: "return m.double(4) === 8;",
  },
  {
    name: "returnLocal",
    family: "missing-return",
    source: `
      export function evens(xs: number[]): number[] {
        const out: number[] = [];
        for (const x of xs) {
          if (x % 2 === 0) out.push(x);
        }
      }
    `,
    at: "if (x % 2 === 0)",
    check: "return JSON.stringify(m.evens([1, 2, 3, 4])) === '[2,4]';",
  },
  {
    name: "nullCheck",
    family: "nullish-check",
    source: `
      export function describe(value) {
        if (value === null) return "none";
        return "value " + value.toFixed(1);
      }
    `,
    path: "src/nullCheck.js",
    at: "value === null",
    check: "return m.describe(undefined) === 'none' && m.describe(2) === 'value 2.0';",
  },
  {
    name: "truthiness",
    family: "nullish-check",
    source: `
      export function show(count?: number): string {
        if (count) return "count " + count;
        return "none";
      }
    `,
    at: "if (count)",
    check: "return m.show(0) === 'count 0' && m.show(undefined) === 'none';",
  },
  {
    name: "optional",
    family: "optional-chaining",
    source: `
      export function customerName(order) {
        return order.customer.name ?? "guest";
      }
    `,
    path: "src/optional.js",
    at: "order.customer.name",
    check: "return m.customerName({}) === 'guest' && m.customerName({ customer: { name: 'A' } }) === 'A';",
  },
  {
    name: "coalescing",
    family: "nullish-coalescing",
    source: `
      export function quantity(options: { qty?: number }): number {
        return options.qty || 1;
      }
    `,
    at: "options.qty || 1",
    check: "return m.quantity({ qty: 0 }) === 0 && m.quantity({}) === 1;",
  },
  {
    name: "await",
    family: "missing-await",
    source: `
      async function fetchData() {
        return { value: 42 };
      }
      export async function load() {
        const data = fetchData();
        return data.value;
      }
    `,
    path: "src/await.js",
    at: "const data = fetchData()",
    check: "return (await m.load()) === 42;",
    fixedLine: "const data = await fetchData();",
  },
  {
    name: "await on another object's async method",
    family: "missing-await",
    source: `
      export class Node {
        constructor(child) {
          this.child = child;
        }
        async total() {
          if (!this.child) return 1;
          const below = this.child.total();
          return below + 1;
        }
      }
    `,
    path: "src/node.js",
    at: "const below = this.child.total()",
    check: "return (await new m.Node(new m.Node()).total()) === 2;",
    fixedLine: "const below = await this.child.total();",
  },
  {
    name: "substring",
    family: "slice-bounds",
    source: `
      export function firstTwo(name: string): string {
        return name.substring(0, 1);
      }
    `,
    at: "name.substring(0, 1)",
    check: "return m.firstTwo('Ada') === 'Ad';",
  },
  {
    name: "substr",
    family: "wrong-method",
    source: `
      export function between(s: string, start: number, end: number): string {
        return s.substr(start, end);
      }
    `,
    at: "s.substr(start, end)",
    check: "return m.between('abcdef', 2, 4) === 'cd';",
  },
  {
    name: "splice",
    family: "wrong-method",
    source: `
      export function removeAt(xs: number[], i: number): number[] {
        xs.slice(i, 1);
        return xs;
      }
    `,
    at: "xs.slice(i, 1)",
    check: "return JSON.stringify(m.removeAt([1, 2, 3], 1)) === '[1,3]';",
  },
  {
    name: "loopVar",
    family: "block-scope",
    source: `
      export function makeCounters(n) {
        const fns = [];
        for (var i = 0; i < n; i++) {
          fns.push(() => i);
        }
        return fns.map((f) => f());
      }
    `,
    path: "src/loopVar.js",
    at: "fns.push(() => i)",
    check: "return JSON.stringify(m.makeCounters(3)) === '[0,1,2]';",
  },
  {
    name: "constAssigned",
    family: "block-scope",
    source: `
      export function total(xs) {
        const sum = 0;
        for (const x of xs) {
          sum += x;
        }
        return sum;
      }
    `,
    path: "src/constAssigned.js",
    at: "sum += x",
    check: "return m.total([1, 2]) === 3;",
    fixedLine: "let sum = 0;",
  },
  {
    name: "arrowBody",
    family: "arrow-body",
    source: `
      export const doubled = (xs: number[]) => xs.map((x) => { x * 2 });
    `,
    at: "xs.map",
    check: "return JSON.stringify(m.doubled([1, 2])) === '[2,4]';",
  },
  {
    name: "arrowObject",
    family: "arrow-body",
    source: `
      export const wrap = (xs) => xs.map((x) => { value: x });
    `,
    path: "src/arrowObject.js",
    at: "xs.map",
    check: "return JSON.stringify(m.wrap([1])) === '[{\"value\":1}]';",
  },
  {
    name: "callbackThis",
    family: "callback-this",
    source: `
      export class Counter {
        constructor() {
          this.count = 0;
        }
        addAll(xs) {
          xs.forEach(function (x) {
            this.count += x;
          });
          return this.count;
        }
      }
    `,
    path: "src/callbackThis.js",
    at: "this.count += x",
    check: "return new m.Counter().addAll([1, 2]) === 3;",
  },
  {
    name: "objectValues",
    family: "object-iteration",
    source: `
      export function totalPrice(prices: Record<string, number>): number {
        return Object.keys(prices).reduce((sum, p) => sum + p, 0);
      }
    `,
    at: "Object.keys(prices)",
    check: "return m.totalPrice({ a: 1, b: 2 }) === 3;",
  },
  {
    name: "forIn",
    family: "object-iteration",
    source: `
      export function sum(xs) {
        let total = 0;
        for (const x in xs) total += x;
        return total;
      }
    `,
    path: "src/forIn.js",
    at: "for (const x in xs)",
    check: "return m.sum([5, 6]) === 11;",
  },
  {
    name: "asyncForEach",
    family: "async-foreach",
    source: `
      async function save(x) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return x * 10;
      }
      export async function saveAll(items) {
        const saved = [];
        items.forEach(async (item) => {
          saved.push(await save(item));
        });
        return saved;
      }
    `,
    path: "src/asyncForEach.js",
    at: "items.forEach",
    check: "return JSON.stringify(await m.saveAll([1, 2])) === '[10,20]';",
  },
  {
    name: "comparator",
    family: "sort-comparator",
    source: `
      export function sorted(xs: number[]): number[] {
        return [...xs].sort((a, b) => a > b);
      }
    `,
    at: "sort(",
    check: "return JSON.stringify(m.sorted([3, 1, 10, 2])) === '[1,2,3,10]';",
  },
  {
    name: "defaultSort",
    family: "sort-comparator",
    source: `
      export function ranks(xs: number[]): number[] {
        return [...xs].sort();
      }
    `,
    at: "sort(",
    check: "return JSON.stringify(m.ranks([10, 9, 1])) === '[1,9,10]';",
  },
  {
    name: "parseInt",
    family: "number-parsing",
    source: `
      export function price(text: string): number {
        return parseInt(text);
      }
    `,
    at: "parseInt(text)",
    check: "return m.price('2.5') === 2.5;",
  },
  {
    name: "concatenation",
    family: "string-concatenation",
    source: `
      export function total(form) {
        return form.price.value + form.tax.value;
      }
    `,
    path: "src/concatenation.js",
    at: "form.price.value",
    check: "return m.total({ price: { value: '2' }, tax: { value: '1' } }) === 3;",
  },
  {
    name: "label",
    family: "string-concatenation",
    source: `
      export function label(a: number, b: number): string {
        return "Total: " + a + b;
      }
    `,
    at: '"Total: "',
    check: "return m.label(1, 2) === 'Total: 3';",
  },
  {
    name: "reduce",
    family: "reduce-initial",
    source: `
      export function total(items) {
        return items.reduce((sum, item) => sum + item.price);
      }
    `,
    path: "src/reduce.js",
    at: "items.reduce",
    check: "return m.total([{ price: 1 }, { price: 2 }]) === 3;",
  },
  {
    name: "indexOf",
    family: "index-check",
    source: `
      export function has(xs: string[], x: string): boolean {
        return xs.indexOf(x) > 0;
      }
    `,
    at: "indexOf",
    check: "return m.has(['a', 'b'], 'a') === true && m.has(['a'], 'z') === false;",
  },
  {
    name: "typeCheck",
    family: "type-check",
    source: `
      export function size(v) {
        return typeof v === "object" ? v.length : 1;
      }
    `,
    path: "src/typeCheck.js",
    at: "typeof v",
    check: "return m.size([1, 2]) === 2 && m.size({ a: 1 }) === 1;",
  },
];

describe("each family proposes the edit that fixes its bug", () => {
  it("covers every family", () => {
    const covered = new Set(CASES.map((c) => c.family));
    expect(JS_CANDIDATE_FAMILIES.filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const { fix, all } = await fixOf(c);
    expect(
      fix,
      `no ${c.family} candidate fixes ${c.name}; got:\n${all.map((x) => `${x.family} ${x.claim}`).join("\n")}`,
    ).toBeDefined();
    if (c.fixedLine) {
      const lines = edited(dedent(c.source), fix!).split("\n");
      expect(lines.map((l) => l.trim())).toContain(c.fixedLine);
    }
  });
});
