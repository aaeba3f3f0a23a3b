import { describe, expect, it } from "vitest";
import { functionsOf } from "../../src/lang/javascript/outline.js";
import { commentsOf, cutTestSnippet, ERROR_MARK } from "../../src/lang/javascript/source-text.js";
import { dedent } from "./harness.js";

describe("commentsOf", () => {
  const source = dedent(`
    const x = 1; // not this one
    /**
     * Adds the prices.
     * @param items the cart's items
     */
    export function total(items) {
      // FIXME: tax is missing
      const s = \`a // not a comment \${x} // nor this\`;
      return items.reduce((a, b) => a + b.price, 0); /* trailing */
    }
    function bare() {
      return "// no comment";
    }
  `);
  const [total, bare] = functionsOf("src/t.js", source);

  it("gives the JSDoc above and each comment inside with its line, never text in strings or templates", () => {
    expect(commentsOf("src/t.js", source, total!)).toBe(
      [
        "/**",
        "* Adds the prices.",
        "* @param items the cart's items",
        "*/",
        "7: // FIXME: tax is missing",
        "9: /* trailing */",
      ].join("\n"),
    );
  });

  it("is empty for a function without comments", () => {
    expect(commentsOf("src/t.js", source, bare!)).toBe("");
  });
});

describe("cutTestSnippet", () => {
  const test = dedent(`
    import { total } from "../src/t.js";
    describe("total", () => {
      it("adds prices", () => {
        const items = [{ price: 1 }];
        expect(items).toHaveLength(1);
        const t = total(items);
        expect(t).toBe(1);
        expect(t).toBeGreaterThan(0);
      });
    });
  `);

  it("cuts the test at the failing statement, marks it and drops earlier assertions", () => {
    expect(cutTestSnippet("test/t.test.js", test, 4, 7)).toBe(
      [
        '  it("adds prices", () => {',
        "    const items = [{ price: 1 }];",
        "    const t = total(items);",
        `    expect(t).toBe(1);  ${ERROR_MARK}`,
      ].join("\n"),
    );
  });

  it("shows the whole test without a failing line inside it, and nothing for a line in no test", () => {
    expect(cutTestSnippet("test/t.test.js", test, 3)).toBe(test.split("\n").slice(2, 9).join("\n"));
    expect(cutTestSnippet("test/t.test.js", test, 1)).toBeUndefined();
  });
});
