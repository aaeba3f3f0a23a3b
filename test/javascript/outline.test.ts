import { describe, expect, it } from "vitest";
import { lineToFunction } from "../../src/lang/javascript/locate.js";
import { functionsOf, moduleConstantsOf, outline } from "../../src/lang/javascript/outline.js";
import { dedent } from "./harness.js";

const names = (path: string, source: string) => functionsOf(path, dedent(source)).map((f) => f.qualname);

describe("functionsOf", () => {
  it("names declarations, class members and nested functions as Python does (Class.method, outer.inner)", () => {
    const source = dedent(`
      export function top(a, b = 2) {
        function inner() {
          return 1;
        }
        const helper = (q) => q * 2;
        return inner() + helper(a) + b;
      }
      export class Cart {
        items = [];
        onClick = () => this.items.length;
        constructor(x) {
          this.x = x;
        }
        get total() {
          return 1;
        }
        set total(v) {}
        static of() {}
        async *pages() {}
        #secret() {}
      }
    `);
    const fns = functionsOf("src/cart.ts", source);
    expect(fns.map((f) => [f.qualname, f.kind])).toEqual([
      ["top", "function"],
      ["top.inner", "function"],
      ["top.helper", "arrow"],
      ["Cart.onClick", "arrow"],
      ["Cart.constructor", "constructor"],
      ["Cart.total", "getter"],
      ["Cart.total", "setter"],
      ["Cart.of", "method"],
      ["Cart.pages", "method"],
      ["Cart.#secret", "method"],
    ]);
    const top = fns[0]!;
    expect([top.startLine, top.endLine, top.signature, top.exported]).toEqual([1, 7, "top(a, b = 2)", true]);
    const pages = fns.find((f) => f.qualname === "Cart.pages")!;
    expect([pages.async, pages.generator, pages.signature]).toEqual([true, true, "async *pages()"]);
    expect(fns.find((f) => f.kind === "getter")!.signature).toBe("get total()");
  });

  it("names CommonJS exports, object-literal methods, prototype methods and assigned properties", () => {
    expect(
      names(
        "lib/api.js",
        `
        exports.load = async function (id) {};
        module.exports.save = (x) => x;
        module.exports = { f() {}, g: () => 2, nested: { deep: function () {} } };
        const api = { get() {}, list: () => 1 };
        Cart.prototype.extra = function () {};
        obj.handler = function named() {};
        function Widget() {
          this.render = function () {};
        }
      `,
      ),
    ).toEqual([
      "load",
      "save",
      "f",
      "g",
      "nested.deep",
      "api.get",
      "api.list",
      "Cart.extra",
      "obj.handler",
      "Widget",
      "Widget.render",
    ]);
  });

  it("names module.exports = function by its own name, and default exports `default`", () => {
    expect(names("a.cjs", "module.exports = function parse(s) { return s; };\n")).toEqual(["parse"]);
    expect(names("b.cjs", "module.exports = () => 1;\n")).toEqual(["module.exports"]);
    expect(names("c.mjs", "export default function () {}\n")).toEqual(["default"]);
    expect(names("d.ts", "export default class { run() {} }\n")).toEqual(["default.run"]);
  });

  it("lists module-level callbacks by their holder or callee@line, and leaves callbacks inside functions to them", () => {
    expect(
      names(
        "src/app.js",
        `
        app.get("/x", (req, res) => {
          res.send(1);
        });
        const doubled = items.map((x) => x * 2);
        export const Memo = memo(() => null);
        function f() {
          return items.map((x) => x + 1);
        }
      `,
      ),
    ).toEqual(["app.get@1", "doubled", "Memo", "f"]);
  });

  it("reads TypeScript: namespaces, overloads (the implementation once), abstract members (none), decorators in the span", () => {
    const source = dedent(`
      namespace Geometry {
        export function area(r: number): number {
          return r * r;
        }
      }
      function over(a: string): void;
      function over(a: number): void;
      function over(a: unknown) {}
      abstract class Shape {
        abstract size(): number;
        @logged
        describe(): string {
          return "shape";
        }
      }
      interface Named {
        name(): string;
      }
    `);
    const fns = functionsOf("src/geo.ts", source);
    expect(fns.map((f) => f.qualname)).toEqual(["Geometry.area", "over", "Shape.describe"]);
    expect(fns.find((f) => f.qualname === "Shape.describe")!.startLine).toBe(11);
    expect(fns[1]!.signature).toBe("over(a: unknown)");
  });

  it("reads TSX and JSX components", () => {
    const tsx = dedent(`
      export const Button = ({ label }: { label: string }) => <button onClick={() => go(label)}>{label}</button>;
      export function List({ items }: { items: string[] }) {
        return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;
      }
    `);
    expect(functionsOf("src/ui.tsx", tsx).map((f) => f.qualname)).toEqual(["Button", "List"]);
    const jsx = 'export default function App() {\n  return <div className="app" />;\n}\n';
    expect(functionsOf("src/App.jsx", jsx).map((f) => [f.qualname, f.startLine, f.endLine])).toEqual([
      ["App", 1, 3],
    ]);
  });
});

describe("moduleConstantsOf", () => {
  it("lists module-level constants and regexes, not functions, classes or imports", () => {
    const source = dedent(`
      import fs from "fs";
      const path = require("path");
      export const MAX = 10;
      const RE = /a+b/g, NAME = "x";
      let counter = 0;
      const pattern = new RegExp("x");
      const make = () => 1;
      const Klass = class {};
      export enum Color { Red, Green }
      function local() {
        const inner = 1;
      }
    `);
    expect(
      moduleConstantsOf("src/c.ts", source).map((c) => [
        c.name,
        c.declaration,
        c.value,
        c.startLine,
        c.exported,
      ]),
    ).toEqual([
      ["MAX", "const", "number", 3, true],
      ["RE", "const", "regex", 4, false],
      ["NAME", "const", "string", 4, false],
      ["counter", "let", "number", 5, false],
      ["pattern", "const", "regex", 6, false],
      ["Color", "enum", "object", 9, true],
    ]);
  });
});

describe("hostile input", () => {
  it("reports a syntax error and still lists what it could read", () => {
    const result = outline("src/broken.js", "function ok() {}\nfunction bad( {\n");
    expect(result.problem).toMatch(/^src\/broken\.js does not parse: .* \(line \d\)$/);
    expect(result.functions.map((f) => f.qualname)).toContain("ok");
  });

  it("refuses what is not JS/TS, is too large, or nests too deeply, with a reason", () => {
    expect(outline("README.md", "# x").problem).toMatch(/not a JavaScript or TypeScript source/);
    expect(outline("types.d.ts", "export {}").problem).toMatch(/not a JavaScript or TypeScript source/);
    expect(outline("a.constructor", "x").problem).toMatch(/not a JavaScript or TypeScript source/);
    expect(outline("big.js", "x".repeat(4_000_001)).problem).toMatch(/more than the 4000000 read/);
    expect(outline("deep.js", `const x = ${"(".repeat(5000)}1${")".repeat(5000)};`).problem).toMatch(
      /nest too deeply/,
    );
  });

  it("keeps line numbers of \\n lines through a BOM, CRLF, lone CR and U+2028 in strings", () => {
    const source =
      "\uFEFFconst s = 'a\u2028b';\r\nfunction f() {\r\n  return 1;\r\n}\r\nconst t = 1;\rfunction g() {}\n";
    const fns = functionsOf("src/weird.js", source);
    expect(fns.map((f) => [f.qualname, f.startLine, f.endLine])).toEqual([
      ["f", 2, 4],
      ["g", 5, 5],
    ]);
  });

  it("reads identifiers in any script and emoji in strings", () => {
    const fns = functionsOf(
      "src/uni.js",
      "function größe(ä) { return '😀'.length + ä; }\nconst 名前 = () => 1;\n",
    );
    expect(fns.map((f) => f.qualname)).toEqual(["größe", "名前"]);
  });
});

describe("lineToFunction", () => {
  const source = dedent(`
    export function outer(xs) {
      const one = () => 1, two = () => 2;
      return xs.map((x) => x + one() + two());
    }
    const top = 1;
  `);
  const lookup = lineToFunction(functionsOf("src/l.js", source));

  it("gives the innermost function of a line, and none for module-level lines or other files", () => {
    expect(lookup("src/l.js", 1)?.qualname).toBe("outer");
    expect(lookup("src/l.js", 3)?.qualname).toBe("outer");
    expect(lookup("src/l.js", 5)).toBeUndefined();
    expect(lookup("src/other.js", 1)).toBeUndefined();
  });

  it("tells functions on one line apart by column", () => {
    const line = source.split("\n")[1]!;
    expect(lookup("src/l.js", 2, line.indexOf("() => 1") + 6)?.qualname).toBe("outer.one");
    expect(lookup("src/l.js", 2, line.indexOf("() => 2") + 6)?.qualname).toBe("outer.two");
    expect(lookup("src/l.js", 2, 0)?.qualname).toBe("outer");
    expect(lookup("src/l.js", 2)?.qualname).toBe("outer.two");
  });
});
