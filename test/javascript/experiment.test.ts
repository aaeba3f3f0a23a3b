import { describe, expect, it } from "vitest";
import { candidatesFor } from "../../src/lang/javascript/candidates/index.js";
import { parseJsExperiment } from "../../src/lang/javascript/experiment.js";
import { formatEditExperiment, parseExperiment } from "../../src/lang/experiment.js";
import { PYTHON_SYNTAX } from "../../src/lang/python/files.js";

describe("parseJsExperiment", () => {
  it("reads edits and breakpoints naming TS/JS files, which the Python parser refuses", () => {
    const text = 'REPLACE(src/cart.ts:14, "<", "<=") AND ADD(lib/a.mjs:3, "await x;") AND RUN';
    expect(parseExperiment(text, PYTHON_SYNTAX).ok).toBe(false);
    expect(parseJsExperiment(text)).toEqual({
      ok: true,
      experiment: {
        kind: "edit",
        edits: [
          { op: "REPLACE", line: 14, file: "src/cart.ts", old: "<", new: "<=" },
          { op: "ADD", line: 3, file: "lib/a.mjs", stmt: "await x;" },
        ],
      },
    });
    expect(parseJsExperiment("b src/ui/App.tsx:7 ;; c ;; p props.items.length")).toEqual({
      ok: true,
      experiment: { kind: "debugger", file: "src/ui/App.tsx", line: 7, exprs: ["props.items.length"] },
    });
    expect(parseJsExperiment('REPLACE(4, "a", "b") AND RUN')).toEqual({
      ok: true,
      experiment: { kind: "edit", edits: [{ op: "REPLACE", line: 4, old: "a", new: "b" }] },
    });
  });

  it("leaves a path inside a quoted string alone", () => {
    const parsed = parseJsExperiment('REPLACE(src/a.js:2, "require(\'./b.js:3\')", "x") AND RUN');
    expect(parsed.ok && parsed.experiment.kind === "edit" && parsed.experiment.edits[0]).toMatchObject({
      file: "src/a.js",
      old: "require('./b.js:3')",
    });
  });

  it("reads a trace of any JS qualified name", () => {
    expect(parseJsExperiment("trace src/app.js:app.get@12")).toEqual({
      ok: true,
      experiment: { kind: "trace", file: "src/app.js", qualname: "app.get@12" },
    });
    expect(parseJsExperiment("trace src/cart.ts:Cart.#total")).toMatchObject({ ok: true });
  });

  it("explains a malformed experiment in terms of .ts files", () => {
    const bad = parseJsExperiment('REPLACE(src/cart.ts:14, "<")');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error).not.toMatch(/\.py|hypofix-js/);
      expect(bad.error).toMatch(/REPLACE/);
    }
    const noFile = parseJsExperiment("b ;; c ;; p x");
    expect(!noFile.ok && noFile.error).toMatch(/file\.ts/);
  });

  it("parses every candidate's edits back, file included", () => {
    const source = "export function f(xs) {\n  return xs[xs.length] ?? null;\n}\n";
    const { candidates } = candidatesFor({ path: "src/f.ts", source, lines: [2] });
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) {
      const parsed = parseJsExperiment(formatEditExperiment(c.edits));
      expect(parsed).toEqual({ ok: true, experiment: { kind: "edit", edits: c.edits } });
    }
  });
});
