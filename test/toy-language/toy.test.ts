import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunContext, withWorkspace } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import { registerLanguage, resolveLanguage } from "../../src/lang/registry.js";
import { localize } from "../../src/localize/index.js";
import { runFix } from "../../src/pipeline/index.js";
import { loadRepoConfig } from "../../src/repo-config.js";
import { toy } from "./toy.js";

// A bank in the toy language: withdrawing the whole balance is refused (`-lt` where `-le` was meant).
const REPO: Record<string, string> = {
  Toyfile: "bank\n",
  "lib/bank.sh": [
    "balance=0",
    "",
    "deposit() {",
    "  balance=$((balance + $1))",
    "}",
    "",
    "can_withdraw() {",
    "  local amount=$1",
    '  if [ "$amount" -lt "$balance" ]; then',
    "    return 0",
    "  fi",
    "  return 1",
    "}",
    "",
    "withdraw() {",
    '  if can_withdraw "$1"; then',
    "    balance=$((balance - $1))",
    "    return 0",
    "  fi",
    '  echo "insufficient funds: $1 of $balance" >&2',
    "  return 1",
    "}",
    "",
  ].join("\n"),
  "tests/deposit.test.sh": '. lib/bank.sh\ndeposit 10\n[ "$balance" -eq 10 ] || exit 1\n',
  "tests/withdraw_some.test.sh":
    '. lib/bank.sh\ndeposit 10\nwithdraw 4 || exit 1\n[ "$balance" -eq 6 ] || exit 1\n',
  "tests/withdraw_all.test.sh":
    '. lib/bank.sh\ndeposit 10\nwithdraw 10 || exit 1\n[ "$balance" -eq 0 ] || exit 1\n',
};

const log = pino({ level: "silent" });
let repo: string;
let unregister: () => void;

beforeAll(async () => {
  unregister = registerLanguage(toy);
  repo = await mkdtemp(join(tmpdir(), "hypofix-toy-"));
  for (const [path, text] of Object.entries(REPO)) {
    await mkdir(dirname(join(repo, path)), { recursive: true });
    await writeFile(join(repo, path), text);
  }
});
afterAll(async () => {
  unregister?.();
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe("a toy language registered through the port", () => {
  it("is the repository's language by detection, and Python stays the default elsewhere", async () => {
    expect((await resolveLanguage({ repoDir: repo })).id).toBe("toy");
    expect((await resolveLanguage({ repoDir: tmpdir() + "/no-such-repo" })).id).toBe("python");
  });

  it("reproduces the failure and localizes it, end to end through the pipeline", async () => {
    const config = loadConfig({});
    const repoConfig = await loadRepoConfig(repo);
    const context = await createRunContext({ engine: "offline", config, repoConfig, repoDir: repo, log });
    expect(context.language.id).toBe("toy");
    const progress: string[] = [];
    const { result } = await runFix(context, {
      repoDir: repo,
      tests: [],
      backend: "local",
      progress: (line) => progress.push(line),
    });
    // Reproduced: the one failing test, three times, and the suite around it.
    expect(result.confidence.reproduced).toBe(true);
    expect(result.failingTests).toEqual(["tests/withdraw_all.test.sh"]);
    expect(result.environment).toMatchObject({ language: "toy", image: "local", testRunner: "bash" });
    expect(progress.some((l) => /^reproduce: 1 failing test\(s\) reproduced 3\/3 times/.test(l))).toBe(true);
    // Localized by SBFL over bash's own trace: the refusal in can_withdraw only the failing test reaches.
    expect(result.localization[0]).toMatchObject({ file: "lib/bank.sh", function: "can_withdraw", line: 12 });
    expect(result.localization.map((e) => e.function)).toEqual(["can_withdraw", "withdraw", "deposit"]);
    expect(progress).toContain("localize: top suspect lib/bank.sh:12 (can_withdraw)");
    // The toy has no candidate generator: the engine finds no patch, and says so.
    expect(result.status).toBe("no-fix");
    expect(result.patches).toEqual([]);
  });

  it("localizes with the localize layer in a workspace the composition root opens", async () => {
    await withWorkspace({ repoDir: repo, backend: "local", config: loadConfig({}), log }, async (ws) => {
      expect(ws.language.id).toBe("toy");
      const run = await ws.runtime.runTests();
      const failing = run.tests.filter((t) => t.outcome === "failed");
      expect(failing.map((t) => t.id)).toEqual(["tests/withdraw_all.test.sh"]);
      expect(run.tests.filter((t) => t.outcome === "passed")).toHaveLength(2);
      const found = await localize({
        runtime: ws.runtime,
        files: ws.sandbox,
        failingTests: failing.map((t) => t.id),
        failures: failing,
        engine: "offline",
        log,
      });
      expect(found.entries[0]).toMatchObject({ file: "lib/bank.sh", function: "can_withdraw" });
      // First the lines only the failing test ran, then the buggy comparison, which the passing tests ran too.
      expect(found.lines.slice(0, 3).map((l) => [l.line, l.score])).toEqual([
        [12, 1],
        [20, 1],
        [21, 1],
      ]);
      const comparison = found.lines.find((l) => l.line === 9);
      expect(comparison).toMatchObject({
        file: "lib/bank.sh",
        function: "can_withdraw",
        failed: 1,
        passed: 1,
      });
      expect(comparison!.score).toBeLessThan(1);
      expect(found.lines.every((l) => l.file === "lib/bank.sh")).toBe(true);
    });
  });
});
