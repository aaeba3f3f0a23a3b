import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createPythonRuntime, python, pythonOf } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { HELPER_FILE, RESULT_MARK } from "../../src/lang/python/protocol.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { versionImageTag } from "../../src/sandbox/images.js";
import { testOptions } from "../sandbox/limits.js";

// The instruments on every Python the images carry: 3.9 (no co_lines, no co_qualname,
// pytest 6), 3.11 (pytest 7), 3.13 (pytest 8). One sandbox per version over a small repository.
const VERSIONS = ["3.9", "3.11", "3.13"];
vi.setConfig({ testTimeout: 300_000 });

const FILES: Record<string, string> = {
  "pytest.ini": [
    "[pytest]",
    "addopts = -n auto --cov=shop -p xdist --timeout=5",
    "timeout = 5",
    "markers =",
    "    slow: the repository's own marker",
    "",
  ].join("\n"),
  "shop/__init__.py": "",
  "shop/cart.py": [
    "import functools",
    "",
    "",
    "class Cart:",
    "    def __init__(self):",
    "        self.items = []",
    "",
    "    def add(self, price, qty):",
    "        for _ in range(qty):",
    "            self.items.append(price)",
    "        return len(self.items)",
    "",
    "    @functools.lru_cache(maxsize=None)",
    "    def rate(self):",
    "        return 2",
    "",
    "",
    "def total(prices):",
    "    def add(a, b):",
    "        return a + b",
    "",
    "    return functools.reduce(add, prices[1:], 0)",
    "",
  ].join("\n"),
  "tests/test_cart.py": [
    "import signal",
    "import time",
    "",
    "import pytest",
    "",
    "from shop.cart import Cart, total",
    "",
    "",
    "def test_add():",
    "    cart = Cart()",
    "    assert cart.add(3, 2) == 2",
    "    assert cart.rate() == 2",
    "",
    "",
    "def test_total():",
    "    assert total([1, 2, 3]) == 6",
    "",
    "",
    "@pytest.mark.slow",
    "@pytest.mark.timeout(5)",
    "def test_own_alarm():",
    "    fired = []",
    "    signal.signal(signal.SIGALRM, lambda *_: fired.append(True))",
    "    signal.setitimer(signal.ITIMER_REAL, 0.05)",
    "    time.sleep(0.3)",
    "    assert fired == [True]",
    "",
    "",
    "def test_sleeps_forever():",
    "    time.sleep(600)",
    "",
  ].join("\n"),
};

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "hypofix-versions-"));
  for (const [name, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(repo, name)), { recursive: true });
    await writeFile(path.join(repo, name), text);
  }
});

describe.each(VERSIONS)("the Python instruments on Python %s", (version) => {
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    const image = versionImageTag(python.environment.images, loadConfig().sandbox.image, version);
    sandbox = await createSandbox("docker", { ...testOptions(repo), image });
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(() => sandbox?.dispose());

  it("runs the image's Python", async () => {
    const res = await sandbox.exec(["python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]);
    expect(res.stdout.trim()).toBe(version);
  });

  it("runs pytest with the repository's markers, xdist/cov/timeout set aside, tests' own SIGALRM intact", async () => {
    const run = await runtime.runTests([
      "tests/test_cart.py::test_add",
      "tests/test_cart.py::test_total",
      "tests/test_cart.py::test_own_alarm",
    ]);
    expect(run.errors).toEqual([]);
    expect(Object.fromEntries(run.tests.map((t) => [t.id.split("::")[1], t.outcome]))).toEqual({
      test_add: "passed",
      test_total: "failed",
      test_own_alarm: "passed",
    });
    expect(runtime.optionsSetAside()).toEqual([
      "-p xdist",
      "-n auto",
      "--cov=shop",
      "--timeout=5",
      "timeout = 5 (ini)",
    ]);
  });

  it("stops a test blocked in sleep at the deadline without SIGALRM", async () => {
    // The helper itself, with a wide exec limit: only its own deadline can end this test's sleep(600).
    // The deadline covers start-up and collection too, which take seconds on a loaded machine.
    const res = await sandbox.exec([pythonOf(sandbox), `${sandbox.helpersDir}/${HELPER_FILE}`], {
      stdin: JSON.stringify({ mode: "run", timeout: 15, ids: ["tests/test_cart.py::test_sleeps_forever"] }),
      timeoutMs: 240_000,
    });
    const { run } = JSON.parse(
      res.stdout.slice(res.stdout.lastIndexOf(RESULT_MARK) + RESULT_MARK.length),
    ) as {
      run: { timedOut: boolean; tests: { outcome: string; failure?: { message: string } }[] };
    };
    expect(run.timedOut).toBe(true);
    expect(run.tests[0]).toMatchObject({ outcome: "failed" });
    expect(run.tests[0]?.failure?.message).toContain("did not finish within 15s");
  });

  it("collects per-test coverage with both collectors", async () => {
    const settrace = await runtime.coverage(["tests/test_cart.py::test_add"]);
    expect(settrace.perTest["tests/test_cart.py::test_add"]?.["shop/cart.py"]).toEqual([6, 9, 10, 11, 15]);
    const cov = await createPythonRuntime(sandbox, { coverageMethod: "coverage" }).coverage([
      "tests/test_cart.py::test_add",
    ]);
    expect(cov.perTest["tests/test_cart.py::test_add"]?.["shop/cart.py"]).toEqual([6, 9, 10, 11, 15]);
  });

  it("sets breakpoints on executable lines only (co_lines or its fallback)", async () => {
    const hit = await runtime.observe(
      "tests/test_cart.py::test_add",
      "b shop/cart.py:10 ;; c ;; p len(self.items)",
    );
    expect(hit.observation).toBe("At each loop execution, the expression was: [0, 1]");
    const blank = await runtime.observe("tests/test_cart.py::test_add", "b shop/cart.py:7 ;; c ;; p 1");
    expect(blank.observation).toContain("not an executable statement");
  });

  it("traces a method, a decorated method and a nested function by qualified name (co_qualname or its fallback)", async () => {
    const method = await runtime.trace("tests/test_cart.py::test_add", "shop/cart.py", "Cart.add");
    expect(method.totalBlocks).toBeGreaterThan(0);
    const decorated = await runtime.trace("tests/test_cart.py::test_add", "shop/cart.py", "Cart.rate");
    expect(decorated.totalBlocks).toBe(1);
    // reduce calls the nested add twice: one block per call.
    const nested = await runtime.trace("tests/test_cart.py::test_total", "shop/cart.py", "total.add");
    expect(nested.totalBlocks).toBe(2);
    const other = await runtime.trace("tests/test_cart.py::test_total", "shop/cart.py", "Cart.add");
    expect(other.totalBlocks).toBe(0);
  });

  it("edits and runs, and lists functions statically", async () => {
    const fixed = await runtime.observe(
      "tests/test_cart.py::test_total",
      'REPLACE(22, "prices[1:]", "prices") AND RUN',
      { file: "shop/cart.py" },
    );
    expect(fixed.observation).toBe("[No exception triggered]");
    const names = (await runtime.functions()).map((f) => f.qualname);
    expect(names).toEqual(["Cart.__init__", "Cart.add", "Cart.rate", "total", "total.add"]);
  });
});
