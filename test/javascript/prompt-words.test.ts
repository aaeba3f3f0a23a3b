import { describe, expect, it } from "vitest";
import { parseFunctionAnswer } from "../../src/debug/parse.js";
import { rewriteCandidate } from "../../src/debug/rewrite.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { functionsOf } from "../../src/lang/javascript/outline.js";
import {
  JS_PROMPTS,
  JS_SYNTAX,
  jsConstructors,
  jsImportSpecifier,
  jsModuleSummary,
} from "../../src/lang/javascript/prompt-words.js";

const source = [
  'import { round } from "./money";',
  "",
  "export const TAX = 0.2;",
  "const LIMITS = {",
  "  max: 10,",
  "};",
  "",
  "export class Cart {",
  "  items: string[] = [];",
  "",
  "  constructor(owner: string, items: string[] = []) {",
  "    this.items = items;",
  "  }",
  "",
  "  static empty(owner: string): Cart {",
  "    return new Cart(owner);",
  "  }",
  "",
  "  total(prices: Record<string, number>): number {",
  "    // every item once",
  "    let sum = 0;",
  "    for (const item of this.items) sum += prices[item] ?? 0;",
  "    return round(sum);",
  "  }",
  "}",
  "",
  "export const double = (x: number) => x * 2;",
  "",
].join("\n");
const file = "src/cart.ts";
const functions = functionsOf(file, source);

describe("JavaScript's prompt words", () => {
  it("uses the file's language for fences and the language's name for people", () => {
    expect(JS_PROMPTS.fence("src/cart.ts")).toBe("typescript");
    expect(JS_PROMPTS.fence("lib/cart.mjs")).toBe("javascript");
    expect(javascript.prompts).toBe(JS_PROMPTS);
  });

  it("summarizes a module outside its functions' bodies: imports, constants, class fields, headers", () => {
    expect(jsModuleSummary(source, file, functions).split("\n")).toEqual([
      'import { round } from "./money";',
      "export const TAX = 0.2;",
      "const LIMITS = {",
      "  max: 10,",
      "};",
      "export class Cart {",
      "  items: string[] = [];",
      "  constructor(owner: string, items: string[] = []) { ... }",
      "  static empty(owner: string): Cart { ... }",
      "  total(prices: Record<string, number>): number { ... }",
      "}",
      "export const double = (x: number) => x * 2;",
    ]);
  });

  it("gives the import a test uses: its own specifier when it has one, else the relative path", () => {
    expect(jsImportSpecifier(file, "test/cart.test.ts")).toBe("../src/cart");
    expect(jsImportSpecifier(file, "test/cart.test.ts", 'import { Cart } from "../src/cart.js";\n')).toBe(
      "../src/cart.js",
    );
    expect(jsImportSpecifier("src/cart/index.js", "src/cart.test.js", "const c = require('./cart');")).toBe(
      "./cart",
    );
    expect(JS_PROMPTS.importOf(file, { testFile: "src/cart.test.ts" })).toBe('import { ... } from "./cart"');
  });

  it("lists the constructors and static factories of each class", () => {
    expect(jsConstructors(source, file)).toEqual([
      "new Cart(owner: string, items: string[] = [])",
      "Cart.empty(owner: string): Cart",
    ]);
  });

  it("reads the definitions of an answer: declarations, arrows, methods, never a control statement", () => {
    const names = [
      "export async function load(id) {",
      "const f = async (a, b) => {",
      "  total(prices: Record<string, number>): number {",
      "  static empty(owner) {",
      "  handler = (event) => {",
      "  if (x) {",
      "  for (const a of b) {",
      '  describe("x", () => {',
    ].map((l) => JS_SYNTAX.nameOf(l));
    expect(names).toEqual(["load", "f", "total", "empty", "handler", undefined, undefined, undefined]);
    expect(parseFunctionAnswer("```ts\nfunction f() {\n  return 1;\n}\n```", javascript)).toMatchObject({
      ok: true,
    });
    expect(parseFunctionAnswer("```ts\nreturn 1;\n```", javascript)).toEqual({
      ok: false,
      problem: "the answer has no JavaScript/TypeScript function definition",
    });
  });

  it("re-applies a method answered at column 0 into its class, keeping its comment", () => {
    const total = functions.find((f) => f.qualname === "Cart.total")!;
    const answer = [
      "total(prices: Record<string, number>): number {",
      "  let sum = 0;",
      "  for (const item of this.items) sum += prices[item] ?? 1;",
      "  return round(sum);",
      "}",
    ].join("\n");
    const c = rewriteCandidate(total, functions, source, answer, 0, { syntax: JS_SYNTAX })!;
    expect(c.edits[0]!.after).toBe(source.replace("prices[item] ?? 0", "prices[item] ?? 1"));
  });
});
