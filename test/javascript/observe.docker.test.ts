import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { observeJs, runDebugger, runTrace, type TestCommand } from "../../src/lang/javascript/observe.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { NODE_IMAGE, NODE_SUPPORT } from "./node-sandbox.js";

// The debugger experiment against real Node in the Node sandbox image: plain JavaScript under
// node:test, CommonJS and ESM, the helper preloaded from the sandbox's helpers folder.
const config = loadConfig();
const FIXTURE = fileURLToPath(new URL("../fixtures/js-observe", import.meta.url));

const nodeTest = (file: string, name: string): TestCommand => ({
  argv: ["node", "--test", "--test-name-pattern", name, file],
});

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", {
    repoDir: FIXTURE,
    image: NODE_IMAGE,
    limits: { ...config.sandbox.limits, timeoutMs: 60_000 },
    support: NODE_SUPPORT,
  });
});
afterAll(() => sb?.dispose());

const debug = (command: TestCommand, file: string, line: number, exprs: string[]) =>
  runDebugger(sb, command, { file, line, exprs }, { timeoutMs: 30_000 });

describe("the debugger experiment on plain JavaScript", () => {
  const cart = nodeTest("test/cart.test.js", "^totals the cart$");

  it("prints an expression at every hit of a line in a loop (CommonJS)", async () => {
    const text = await debug(cart, "lib/cart.js", 8, ["sum", "item.name"]);
    expect(text).toBe(
      [
        "sum: At each loop execution, the expression was: [0, 300, 600]",
        "item.name: At each loop execution, the expression was: ['pen', 'pad', 'ink']",
      ].join("\n"),
    );
  });

  it("prints one value for a single hit, in an ES module", async () => {
    const text = await debug(nodeTest("test/discount.test.mjs", "ten percent"), "lib/discount.mjs", 4, [
      "{ cents, percent, off }",
    ]);
    expect(text).toBe("{ cents: 1999, percent: 10, off: 199 }");
  });

  it("says a line the test never reaches was not reached, with the lines it did run", async () => {
    const text = await debug(cart, "lib/cart.js", 14, ["items"]);
    expect(text).toBe(
      "The breakpoint at lib/cart.js:14 was never reached by the test. " +
        "Lines of lib/cart.js the test did execute nearest to it: 6, 7, 8, 10, 17.",
    );
  });

  it("says a line without a statement holds no breakpoint", async () => {
    const text = await debug(cart, "lib/cart.js", 3, ["sum"]);
    expect(text).toMatch(/^Line 3 is not an executable statement in lib\/cart\.js \(17 lines\)/);
    expect(await debug(cart, "lib/cart.js", 40, ["sum"])).toMatch(
      /^Line 40 is beyond the end of lib\/cart\.js/,
    );
  });

  it("reports an expression that throws as the error, at each hit", async () => {
    const text = await debug(cart, "lib/cart.js", 8, ["item.price.toFixed(2).oops.length"]);
    expect(text).toBe(
      "TypeError: Cannot read properties of undefined (reading 'length') (at each of the 3 executions)",
    );
  });

  it("keeps a hostile expression as data: no shell reads it, the other expressions still print", async () => {
    const hostile = `"; touch /tmp/pwned; echo "$(id)\` ) } ]; process.exit(3) //`;
    const text = await debug(cart, "lib/cart.js", 8, [hostile, "sum"]);
    const [first, second] = text.split("\n");
    expect(first).toMatch(/^"; touch .*: SyntaxError: /);
    expect(second).toBe("sum: At each loop execution, the expression was: [0, 300, 600]");
    const pwned = await sb.exec(["ls", "/tmp/pwned"]);
    expect(pwned.exitCode).not.toBe(0);
  });

  it("says so when the test never loads the file", async () => {
    const text = await debug(cart, "lib/discount.mjs", 3, ["off"]);
    expect(text).toMatch(
      /^The breakpoint at lib\/discount\.mjs:3 was never reached: the test did not load lib\/discount\.mjs\./,
    );
  });

  it("runs as the runtime's observe: parsed experiments, invalid ones explained", async () => {
    const ctx = { sandbox: sb, command: () => cart, timeoutMs: 30_000 };
    const obs = await observeJs(
      ctx,
      "test/cart.test.js > totals the cart",
      "b lib/cart.js:7 ;; c ;; p item.qty",
    );
    expect(obs).toMatchObject({
      kind: "debugger",
      observation: "At each loop execution, the expression was: [2, 1, 4]",
    });
    const bad = await observeJs(ctx, "t", "b lib/cart.js ;; c");
    expect(bad.kind).toBe("invalid");
    expect(bad.observation).toMatch(/is not file\.ts:line/);
  });

  it("traces a function's blocks with the variables at their entry and exit", async () => {
    const ctx = { sandbox: sb, command: () => cart, timeoutMs: 30_000 };
    const obs = await observeJs(ctx, "t", "trace lib/cart.js:total");
    expect(obs.kind).toBe("trace");
    const text = obs.observation;
    expect(text.split("\n")[0]).toBe("Trace of total (lib/cart.js) in t: 5 blocks.");
    // The loop comes round three times: each time a block from its header, with the sum so far.
    expect(text).toContain("[Block 1] lines 5-8\n    let sum = 0;\n    for (const item of items) {");
    expect(text).toMatch(
      /\[Block 2\] lines 6-8\n(?:.*\n){3} {2}before: items = .*, sum = 300.*\n {2}after: {2}items = .*, sum = 600/,
    );
    expect(text).toMatch(
      /\[Block 5\] line 10\n {4}return sum;\n.*\n {2}after: .*sum = 900, __return__ = 900\n/,
    );
    expect(text.split("\n").at(-1)).toBe("The test ended with: [No exception triggered]");
  });

  it("says when the test never calls the traced function, or the file has no such function", async () => {
    const never = await runTrace(
      sb,
      cart,
      { file: "lib/cart.js", qualname: "unused", testId: "t" },
      { timeoutMs: 30_000 },
    );
    expect(never).toMatchObject({ totalBlocks: 0, blocks: [] });
    expect(never.rendered).toBe(
      "The test t never called unused (lib/cart.js). The test ended with: [No exception triggered]",
    );
    const missing = await runTrace(
      sb,
      cart,
      { file: "lib/cart.js", qualname: "nope", testId: "t" },
      { timeoutMs: 30_000 },
    );
    expect(missing.rendered).toBe("No function nope in lib/cart.js. Functions there: total, unused.");
  });
});
