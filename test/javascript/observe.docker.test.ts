import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { observeJs, runDebugger, type TestCommand } from "../../src/lang/javascript/observe.js";
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
});
