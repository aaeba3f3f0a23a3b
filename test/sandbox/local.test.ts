import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { python, pythonOf } from "../../src/lang/python/index.js";
import { ignoredHelper } from "../../src/sandbox/helpers.js";
import { createSandbox, type Sandbox, TRUNCATION_MARK } from "../../src/sandbox/index.js";
import { testOptions } from "./limits.js";

const repo = mkdtempSync(path.join(tmpdir(), "hypofix-repo-"));
writeFileSync(path.join(repo, "mod.py"), "def f():\n    return 1\n");

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("local", testOptions(repo));
});
afterAll(() => sb?.dispose());

describe("local sandbox", () => {
  it("works on a copy, with the helper files beside it", async () => {
    expect(sb.kind).toBe("local");
    await sb.writeFile("mod.py", "changed");
    expect(readFileSync(path.join(repo, "mod.py"), "utf8")).toBe("def f():\n    return 1\n");
    const helpers = readdirSync(python.sandbox.helpers.dir).filter(
      (f) => !ignoredHelper(f, python.sandbox.helpers),
    );
    expect(readdirSync(sb.helpersDir).sort()).toEqual(helpers.sort());
    expect(pythonOf(sb)).toBe(process.env.HYPOFIX_PYTHON ?? "python3");
  });

  it("keeps secrets out of the command's environment", async () => {
    process.env.HYPOFIX_LLM_API_KEY = "sk-test-secret";
    try {
      const res = await sb.exec(["sh", "-c", "env"], { env: { EXTRA: "1" } });
      expect(res.stdout).not.toContain("sk-test-secret");
      expect(res.stdout).toContain("EXTRA=1");
    } finally {
      delete process.env.HYPOFIX_LLM_API_KEY;
    }
  });

  it("kills the process group at the timeout", async () => {
    const marker = path.join(sb.workdir, "survivor");
    const res = await sb.exec(["sh", "-c", `(sleep 2; touch ${marker}) & sleep 600`], { timeoutMs: 500 });
    expect(res).toMatchObject({ timedOut: true, exitCode: null });
    expect(res.durationMs).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it("cuts a 10 MB print at the cap", async () => {
    const res = await sb.exec(["sh", "-c", "head -c 10000000 /dev/zero | tr '\\0' x; echo done >&2"], {
      maxOutputBytes: 1000,
    });
    expect(res).toMatchObject({ exitCode: 0, truncated: true, stderr: "done\n" });
    expect(res.stdout).toBe("x".repeat(1000) + TRUNCATION_MARK);
  });

  it("reports a missing command as exit 127", async () => {
    const res = await sb.exec(["hypofix-no-such-command"]);
    expect(res.exitCode).toBe(127);
    expect(res.stderr).toContain("ENOENT");
  });

  it("restores a snapshot exactly", async () => {
    const snap = await sb.snapshot();
    await sb.writeFile("mod.py", "broken(");
    await sb.writeFile("new/file.py", "x = 1\n");
    await sb.restore(snap);
    expect(await sb.readFile("mod.py")).toBe("changed");
    expect(existsSync(path.join(sb.workdir, "new"))).toBe(false);
    await expect(sb.restore("s99")).rejects.toThrow(/unknown snapshot/);
  });

  it("removes its directories on dispose", async () => {
    const own = await createSandbox("local", testOptions(repo));
    await own.dispose();
    await own.dispose();
    await expect(own.exec(["true"])).rejects.toThrow("sandbox already disposed");
    expect(existsSync(own.workdir)).toBe(false);
  });
});
