import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { runDebugger, runTrace, type TestCommand } from "../../src/lang/javascript/observe.js";
import { restoreCommand } from "../../src/lang/javascript/setup.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { inspectImage } from "../../src/sandbox/images.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { removeImages } from "../environment/helpers.js";
import { startSetupMirror } from "../helpers/npm-mirror.js";
import { buildNodeFixture, NODE_IMAGE, NODE_SUPPORT } from "./node-sandbox.js";

// The debugger experiment on TypeScript, through the project's own transform and its source
// maps: tsx under node:test, and Vitest. The project's packages (its lockfile) come from the
// tests' npm mirror into the environment image; the tests then run without a network. The
// lines asked for are the TypeScript file's: its interfaces and type aliases are gone from the
// code Node runs, so every line after them sits elsewhere there.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 400_000 });
const config = loadConfig();
const docker = dockerClient();
const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));
let sb: Sandbox;
let image: string | undefined;

beforeAll(async () => {
  const base = await inspectImage(docker, NODE_IMAGE);
  if (!base) throw new Error(`${NODE_IMAGE} not found: bash scripts/provision.sh builds it`);
  const mirror = await startSetupMirror({
    lockfiles: [path.join(FIXTURES, "js-observe-ts/package-lock.json")],
    docker,
  });
  const built = await buildNodeFixture("js-observe-ts", base, mirror).finally(() => mirror.close());
  image = built.env.image;
  sb = await createSandbox("docker", {
    repoDir: built.repo,
    image,
    limits: { ...config.sandbox.limits, timeoutMs: 90_000 },
    support: NODE_SUPPORT,
  });
  const restored = await sb.exec(restoreCommand(sb.workdir));
  if (restored.exitCode !== 0) throw new Error(`restoring node_modules failed: ${restored.stderr}`);
});
afterAll(async () => {
  await sb?.dispose();
  await removeImages([image]);
});

const tsxTest = (name: string): TestCommand => ({
  argv: ["node", "--import", "tsx", "--test", "--test-name-pattern", name, "test/node/cart.test.ts"],
});
const vitest = (name: string): TestCommand => ({
  argv: ["node", "node_modules/vitest/vitest.mjs", "run", "test/vitest/cart.spec.ts", "-t", name],
});

const debug = (command: TestCommand, line: number, exprs: string[]) =>
  runDebugger(sb, command, { file: "src/cart.ts", line, exprs }, { timeoutMs: 60_000 });

describe("the debugger experiment on TypeScript, through source maps", () => {
  it("breaks at the TypeScript line under tsx and node:test, at every hit", async () => {
    const text = await debug(tsxTest("^totals the cart$"), 14, ["cost", "result.sum"]);
    expect(text).toBe(
      [
        "cost: At each loop execution, the expression was: [300, 300]",
        "result.sum: At each loop execution, the expression was: [0, 300]",
      ].join("\n"),
    );
  });

  it("breaks in a function's body, and in an arrow function at load and at every call", async () => {
    expect(await debug(tsxTest("^labels the cart$"), 21, ["t"])).toBe("{ sum: 600, count: 3 }");
    // `export const isEmpty = (lines) => ...`: the module's statement runs once at load, the arrow's body at the call.
    expect(await debug(tsxTest("^an empty cart is empty$"), 25, ["lines"])).toBe(
      "At each loop execution, the expression was: [ReferenceError: lines is not defined, []]",
    );
  });

  it("breaks at the TypeScript line under Vitest, in its worker", async () => {
    const text = await debug(vitest("totals three lines"), 14, ["line.name", "cost"]);
    expect(text).toBe(
      [
        "line.name: At each loop execution, the expression was: ['ink', 'pen', 'pad']",
        "cost: At each loop execution, the expression was: [300, 150, 600]",
      ].join("\n"),
    );
  });

  it("says a type-only line holds no breakpoint, naming the TypeScript lines that do", async () => {
    const text = await debug(tsxTest("^totals the cart$"), 7, ["result"]);
    const [, lines] =
      /^Line 7 is not an executable statement in src\/cart\.ts \(25 lines\), so no breakpoint can be set there\. Nearest executable lines: ([\d, ]+)\.$/.exec(
        text,
      ) ?? [];
    // Lines 1-8 are an interface, a type alias and a comment: nothing of them is left to run.
    expect(lines?.split(", ").map(Number)).toEqual(expect.arrayContaining([11, 12]));
    expect(Math.min(...(lines ?? "0").split(", ").map(Number))).toBeGreaterThan(8);
  });

  it("says a TypeScript line the test never reaches was not reached", async () => {
    const text = await debug(tsxTest("^totals the cart$"), 21, ["t"]);
    const [, lines] =
      /^The breakpoint at src\/cart\.ts:21 was never reached by the test\. Lines of src\/cart\.ts the test did execute nearest to it: ([\d, ]+)\.$/.exec(
        text,
      ) ?? [];
    expect(lines?.split(", ")).toEqual(expect.arrayContaining(["17", "25"]));
    expect(lines?.split(", ")).not.toContain("22");
  });

  it("traces a TypeScript function in its own lines", async () => {
    const where = { file: "src/cart.ts", qualname: "totals", testId: "t" };
    const trace = await runTrace(sb, tsxTest("^totals the cart$"), where, { timeoutMs: 60_000 });
    expect(trace.blocks.map((b) => [b.startLine, b.endLine])).toEqual([
      [11, 15],
      [12, 15],
      [12, 12],
      [17, 17],
    ]);
    expect(trace.blocks[0]!.code).toBe(
      [
        "  const result: Totals = { sum: 0, count: 0 };",
        "  for (const line of lines) {",
        "    const cost: number = line.cents * line.qty;",
        "    result.sum += cost;",
        "    result.count += line.qty;",
      ].join("\n"),
    );
    expect(trace.blocks.at(-1)!.after["__return__"]).toBe("{ sum: 600, count: 3 }");
  });
});
