import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { servePackageMirror, type PackageMirror } from "../../bench/lib/package-mirror.js";
import { hostAddress } from "../helpers/host-address.js";
import { buildWheel, copyFixture, hypofixFix, removeImages } from "./helpers.js";

// Real repositories, each fixed by `hypofix fix` with the offline engine in the real
// Docker sandbox: dependencies from a setup, pytest settings, layouts, Python versions.
// Whole CLI runs (two in the first test) on a 2-core machine that other work shares.
vi.setConfig({ testTimeout: 900_000 });
const built: (string | undefined)[] = [];
afterAll(() => removeImages(built));

const SHINY = { "shiny/__init__.py": "def double(x):\n    return 2 * x\n" };

describe("a repository whose dependency the base image lacks", () => {
  // env-deps installs hypofix-shiny from a company mirror: one of the test's on this host.
  let host: Awaited<ReturnType<typeof hostAddress>>;
  let withShiny: PackageMirror;
  let empty: PackageMirror;
  beforeAll(async () => {
    host = await hostAddress();
    const wheels = await mkdtemp(path.join(tmpdir(), "hypofix-wheels-"));
    await buildWheel(wheels, "hypofix-shiny", "1.0", SHINY);
    withShiny = await servePackageMirror(wheels, host.address);
    empty = await servePackageMirror(await mkdtemp(path.join(tmpdir(), "hypofix-nowheels-")), host.address);
  });
  afterAll(async () => {
    withShiny?.close();
    empty?.close();
    await host?.remove();
  });
  const mirror = (served: PackageMirror) => ({ HYPOFIX_PIP_INDEX_URL: `${served.url}/simple/` });

  it("installs it in a build container on its own network, fixes the bug, and reuses the environment on the next job", async () => {
    const repo = await copyFixture("env-deps");

    const first = await hypofixFix(repo, mirror(withShiny));
    built.push(first.result.environment?.image);
    expect(first.code).toBe(0);
    expect(first.result.status).toBe("fixed");
    expect(first.result.environment).toMatchObject({
      python: "3.11",
      cached: false,
      setup: ["pip install -r requirements.txt"],
      setupSource: "detected: requirements.txt",
      pytestSetAside: [],
    });
    expect(first.result.environment?.image).toMatch(/^hypofix\/env:[0-9a-f]{32}$/);
    expect(first.stderr).toMatch(
      /environment: Python 3\.11 \(default\); setup detected: requirements\.txt: pip install -r requirements\.txt; built hypofix\/env:/,
    );

    // The build container: a network of its own, whose only way out is the egress proxy
    // (test/security/setup-egress-allowlist.test.ts), never the default bridge.
    expect(first.seen.build).toHaveLength(1);
    const build = first.seen.build[0]!;
    expect(Object.keys(build.NetworkSettings.Networks)).toEqual([build.HostConfig.NetworkMode]);
    expect(build.HostConfig.NetworkMode).toMatch(/^hypofix-setup-/);
    expect(first.seen.networks.map((n) => n.Internal)).toEqual([true]);
    expect(withShiny.requests).toContain("GET /simple/hypofix-shiny/ 200 auth=no");
    // The test containers: no network at all, started from the environment image.
    expect(first.seen.test.length).toBeGreaterThan(0);
    for (const test of first.seen.test) {
      expect(test.HostConfig.NetworkMode).toBe("none");
      expect(Object.keys(test.NetworkSettings.Networks)).toEqual(["none"]);
      expect(test.Config.Image).toBe(first.result.environment?.image);
    }

    const second = await hypofixFix(repo, mirror(withShiny));
    expect(second.result.status).toBe("fixed");
    expect(second.result.environment).toMatchObject({ image: first.result.environment?.image, cached: true });
    expect(second.seen.build).toEqual([]);
    expect(second.stderr).toContain(`cached environment ${first.result.environment?.image}`);
  });

  it("ends with status error and the last lines of pip's log when the setup fails", async () => {
    const repo = await copyFixture("env-deps");
    // A mirror without the wheel: pip finds nothing to install.
    const run = await hypofixFix(repo, mirror(empty));
    expect(run.code).toBe(2);
    expect(run.result.status).toBe("error");
    expect(run.result.reason).toContain("setup command `pip install -r requirements.txt` failed (exit 1)");
    expect(run.result.reason).toMatch(/No matching distribution found for hypofix-shiny==1\.0/);
    expect(run.result.environment).toMatchObject({
      cached: false,
      setup: ["pip install -r requirements.txt"],
    });
    expect(run.stderr).toContain("environment:");
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe("pytest as the repository configures it", () => {
  it("sets aside --cov and -n auto when neither plugin is installed, and says so", async () => {
    const run = await hypofixFix(await copyFixture("env-addopts"));
    expect(run.result.status).toBe("fixed");
    expect(run.result.environment?.pytestSetAside).toEqual(["--cov=stock", "-n auto"]);
  });

  it("puts src/ on the path of a src layout without a pythonpath setting", async () => {
    const run = await hypofixFix(await copyFixture("env-src"));
    expect(run.result.status).toBe("fixed");
    expect(run.result.patches[0]?.diff).toContain("+++ b/src/inventory/limits.py");
    expect(run.result.environment).toMatchObject({ setup: [], pytestSetAside: [] });
  });

  it("runs a monorepo's project from working_directory, with patches relative to the repository root", async () => {
    const run = await hypofixFix(await copyFixture("env-monorepo"));
    expect(run.result.status).toBe("fixed");
    expect(run.result.failingTests).toEqual(["tests/test_quota.py::test_at_quota"]);
    expect(run.result.patches[0]?.diff).toContain("+++ b/services/api/app/quota.py");
    expect(run.result.environment?.workingDirectory).toBe("services/api");
  });
});

describe("repository shapes", () => {
  it("runs tests named by setup.cfg's python_files without installing the folder, and never suspects them", async () => {
    const run = await hypofixFix(await copyFixture("layout-checks"));
    expect(run.result.status).toBe("fixed");
    expect(run.result.environment).toMatchObject({ setup: [], pytestSetAside: [] });
    expect(run.result.failingTests).toEqual(["checks/check_bounds.py::check_upper_edge"]);
    expect(run.result.patches[0]?.diff).toContain("+++ b/rng/bounds.py");
    expect(run.result.localization.map((f) => f.file)).toEqual(["rng/bounds.py"]);
    // Every failing test fixed: no partial-fix wording (the hang case below is the other side).
    expect(run.stderr).toContain("patch validated");
    expect(run.stderr).not.toContain("; it fixes");
    expect(run.result.reason).toContain("keeps the whole suite green");
  });

  it("fixes what it can when a test broken before hangs first: the hang fails at its own limit, the suite goes on, and the run is partial", async () => {
    const run = await hypofixFix(
      await copyFixture("layout-hang"),
      // The validation's time limit, so the hung test costs seconds there, not minutes.
      { HYPOFIX_SANDBOX_TIMEOUT_MS: "20000" },
    );
    expect(run.result.status, run.stderr).toBe("partial");
    // Both failing tests were taken; the patch fixes one and leaves the hung one as it was.
    expect(run.stderr).toContain("it fixes 1 of the 2 failing tests");
    expect(run.result.failingTests).toHaveLength(2);
    expect(run.result.partialFix?.fixes).toEqual(["tests/test_b_agg.py::test_mean"]);
    expect(run.result.partialFix?.stillFailing).toHaveLength(1);
    expect(run.result.patches.find((p) => p.plausible)?.diff).toMatch(
      /^\+ {4}return sum\(xs\) \/ \(?len\(xs\)\)?$/m,
    );
    expect(run.result.patches.find((p) => p.plausible)).toMatchObject({
      testsRun: 4,
      testsFailed: 1,
      brokenTests: [],
    });
    expect(run.result.confidence.suitePasses).toBe(false);
    expect(run.result.reason).toContain("a patch fixes 1 of 2 failing tests");
  });
});

describe("Python versions", () => {
  it("runs requires-python >=3.13 with 3.12+ syntax on the 3.13 image, installed by pip install -e .", async () => {
    const repo = await copyFixture("env-py313");
    const run = await hypofixFix(repo);
    built.push(run.result.environment?.image);
    expect(run.result.status).toBe("fixed");
    expect(run.result.environment).toMatchObject({
      python: "3.13",
      setup: ["pip install -e ."],
      setupSource: "detected: pyproject.toml",
    });
    expect(run.stderr).toContain("Python 3.13 (requires-python)");
  });

  it("fails to collect the same repository on 3.11 when the configuration asks for it", async () => {
    const repo = await copyFixture("env-py313");
    await mkdir(path.join(repo, ".github"));
    await writeFile(
      path.join(repo, ".github/hypofix.yml"),
      'python_version: "3.11"\nsetup_command: pip --version\n',
    );
    const run = await hypofixFix(repo);
    built.push(run.result.environment?.image);
    expect(run.result.environment).toMatchObject({ python: "3.11", setupSource: "config: setup_command" });
    expect(run.result.status).toBe("error");
    expect(run.result.reason).toMatch(/SyntaxError/);
    expect(await readFile(path.join(repo, "pyver.py"), "utf8")).toContain("def last_within[T]");
  });
});
