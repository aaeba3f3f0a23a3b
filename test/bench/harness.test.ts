import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTable } from "../../bench/lib/harness.js";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules/.bin/tsx");
let dir: string;

const GOOD = `export default {
  name: "good",
  description: "returns two rows",
  async run(options) {
    return { rows: [{ metric: "answer", value: 42, unit: "n", target: ">= 40" }, { metric: "subset", value: options.subset }],
             data: { timeoutMs: options.timeoutMs } };
  },
};`;
const THROWS = `export default { name: "throws", description: "", async run() { throw new Error("docker is not running"); } };`;
const BROKEN = `import { nothing } from "./does-not-exist.js";\nexport default nothing;`;
const SHAPELESS = `export default 42;`;
const HANGS = `export default { name: "hangs", description: "", run: () => new Promise(() => setInterval(() => {}, 1000)) };`;

async function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [
      "bench/run.ts",
      "--bench-dir",
      dir,
      "--results-dir",
      join(dir, "out"),
      ...args,
    ]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bench-harness-"));
  await writeFile(join(dir, "good.bench.ts"), GOOD);
  await writeFile(join(dir, "throws.bench.ts"), THROWS);
  await writeFile(join(dir, "broken.bench.ts"), BROKEN);
  await writeFile(join(dir, "shapeless.bench.ts"), SHAPELESS);
  await writeFile(join(dir, "hangs.bench.ts"), HANGS);
  await writeFile(join(dir, "notes.ts"), "export {};");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("bench/run.ts", () => {
  it("runs every benchmark, reports failures in the table, keeps going, and exits 1", async () => {
    const { code, stdout } = await bench(["--subset", "full", "--timeout", "500", "--bench-timeout", "8000"]);
    expect(code).toBe(1);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^benchmark\s+metric\s+value\s+unit\s+target$/);
    expect(lines.find((l) => l.startsWith("good") && l.includes("answer"))).toMatch(/42\s+n\s+>= 40/);
    expect(lines.find((l) => l.startsWith("good") && l.includes("subset"))).toMatch(/full/);
    expect(lines.find((l) => l.startsWith("throws"))).toMatch(/FAILED\s+docker is not running/);
    expect(lines.find((l) => l.startsWith("broken"))).toMatch(/FAILED/);
    expect(lines.find((l) => l.startsWith("shapeless"))).toMatch(
      /FAILED\s+shapeless: no default-exported Benchmark/,
    );
    expect(lines.find((l) => l.startsWith("hangs"))).toMatch(/FAILED\s+did not finish within \d+ ms/);
    expect(stdout).not.toContain("notes");

    const written = JSON.parse(await readFile(join(dir, "out/good.json"), "utf8"));
    expect(written).toMatchObject({
      name: "good",
      subset: "full",
      timeoutMs: 500,
      result: { data: { timeoutMs: 500 } },
      machine: { cpus: expect.any(Number), node: process.version },
    });
    expect(written.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Number.isNaN(Date.parse(written.date))).toBe(false);
    const failed = JSON.parse(await readFile(join(dir, "out/throws.json"), "utf8"));
    expect(failed.error).toBe("docker is not running");
    expect(failed.result).toBeUndefined();
  });

  it("runs only the named benchmarks, quick by default, and exits 0 when they pass", async () => {
    const { code, stdout } = await bench(["good"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/good\s+subset\s+quick/);
    expect(stdout).not.toContain("throws");
  });

  it("refuses an unknown name and a bad option", async () => {
    expect((await bench(["nope"])).code).toBe(1);
    const bad = await bench(["--subset", "huge"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/quick, full/);
  });
});

describe("formatTable", () => {
  it("aligns columns and rounds long numbers", () => {
    const table = formatTable([
      {
        name: "a",
        ok: true,
        durationMs: 1500,
        result: { rows: [{ metric: "ratio", value: 1 / 3 }], data: {} },
      },
      { name: "bb", ok: false, durationMs: 1, error: "boom" },
    ]);
    expect(table.split("\n")).toEqual([
      "benchmark  metric    value  unit  target",
      "---------  --------  -----  ----  ------",
      "a          ratio     0.333",
      "a          run time  1.5    s",
      "bb         FAILED    boom",
    ]);
  });
});
