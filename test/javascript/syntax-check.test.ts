import { describe, expect, it } from "vitest";
import { SyntaxCheck } from "../../src/lang/javascript/candidates/build.js";
import { parseSource } from "../../src/lang/javascript/parse.js";

function checker(path: string, text: string) {
  const parsed = parseSource(path, text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return (from: string, to: string, early: boolean) => {
    const start = text.indexOf(from);
    return new SyntaxCheck(parsed.source).accepts([{ start, end: start + from.length, text: to }], early);
  };
}

describe("SyntaxCheck", () => {
  const text =
    "function f(a, b) {\n  const x = a || b;\n  return g(x);\n}\nexport async function h() {\n  return g(1);\n}\n";
  const check = checker("src/f.js", text);

  it("refuses a new syntax error and accepts valid code", () => {
    expect(check("a || b", "a ||", false)).toBe(false);
    expect(check("a || b", "a && b", false)).toBe(true);
  });

  it("refuses early errors only when asked: await outside async, ?? beside ||, a name declared twice", () => {
    expect(check("return g(x)", "return await g(x)", false)).toBe(true);
    expect(check("return g(x)", "return await g(x)", true)).toBe(false);
    expect(check("return g(1)", "return await g(1)", true)).toBe(true);
    expect(check("a || b", "a ?? b || a", true)).toBe(false);
    expect(check("a || b", "(a ?? b) || a", true)).toBe(true);
    expect(check("const x = a || b;", "let x = 1; const x = a || b;", true)).toBe(false);
  });

  it("ignores errors the original already had in the region", () => {
    const broken = "function f() {\n  return 1 +;\n}\nconst y = 2;\n";
    const c = checker("src/b.js", broken);
    expect(c("const y = 2", "const y = 3", false)).toBe(true);
    expect(c("const y = 2", "const y = ;", false)).toBe(false);
  });

  it("checks TypeScript, TSX, and top-level await in an ES module", () => {
    expect(checker("src/t.ts", "const n: number = 1;\n")("= 1", "= 2", false)).toBe(true);
    expect(checker("src/t.tsx", "export const A = () => <b>{1}</b>;\n")("{1}", "{2}", false)).toBe(true);
    expect(checker("src/t.tsx", "export const A = () => <b>{1}</b>;\n")("</b>", "</i>", false)).toBe(false);
    expect(checker("src/m.mjs", "const v = load();\nexport { v };\n")("load()", "await load()", true)).toBe(
      true,
    );
  });
});
