import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { RepairCandidate } from "../../src/lang/types.js";
import { versionImageTag } from "../../src/sandbox/images.js";
import { CandidateBench, dedent, lineOf, type FixCase, type LeaveAloneCase } from "./candidates-harness.js";
import { python, pythonOf } from "../../src/lang/python/index.js";

// The candidate helper inside the docker sandbox, on every Python the images carry (3.9's
// ast differs from 3.12's around f-strings and positions): the same candidates everywhere,
// exact edits on lines with non-ASCII text (ast columns are UTF-8 bytes), and a fix that
// makes the repository's test pass under the container's pytest.
const VERSIONS = ["3.9", "3.11", "3.13"];
vi.setConfig({ testTimeout: 300_000 });

const receipt = dedent(`
  def line_total(label, price, qty):
      title = f"{label} ×{qty}"  # «prix» in €
      amount = 0 if label == "—" else price * qty * (0.5 if qty > 10 else 1)
      return "{}: {}".format(title, amount)


  def receipt(items, width=40):
      lines = [
          line_total(name, price, qty)
          for name, price, qty in items
          if qty >= 1
      ]
      return "\\n".join(line[:width] for line in lines)
`);

const fix: FixCase = {
  name: "receipt",
  family: "changed-operator",
  source: receipt,
  lines: [lineOf(receipt, "amount = 0 if")],
  fix: ["if qty > 10 else", "if qty >= 10 else"],
  test: `
    from prog.receipt import line_total
    def test_half_price_from_ten():
        assert line_total("tea", 2, 10) == "tea ×10: 10.0"
    def test_full_price_below_ten():
        assert line_total("tea", 2, 9) == "tea ×9: 18"
  `,
};

const everything: LeaveAloneCase = {
  name: "receipt_all",
  source: receipt,
  span: { start: 1, end: receipt.split("\n").length },
  forbidden: (c, edited) =>
    /f"\{[^}"]+\} ×\{[^}"]+\}" {2}# «prix» in €/.test(edited)
      ? undefined
      : `${c.claim} breaks the f-string's text`,
};

const byVersion = new Map<string, RepairCandidate[]>();

describe.each(VERSIONS)("repair candidates in the Python %s sandbox", (version) => {
  let bench: CandidateBench;
  beforeAll(async () => {
    const image = versionImageTag(python.environment.images, loadConfig().sandbox.image, version);
    bench = await CandidateBench.create("docker", [fix], [everything], image);
  });
  afterAll(async () => {
    await bench?.dispose();
  });

  it("runs the image's Python", async () => {
    const res = await bench.sandbox.exec([
      pythonOf(bench.sandbox),
      "-c",
      "import sys; print(sys.version_info[:2])",
    ]);
    expect(res.stdout.trim()).toBe(`(${version.replace(".", ", ")})`);
  });

  it("proposes the fix on a line with non-ASCII text, and the container's pytest passes with it", async () => {
    const all = await bench.expectFixed(fix);
    await bench.expectAllParse(receipt, all);
  });

  it("edits a multi-line comprehension and the expressions of an f-string, never its text", async () => {
    const all = await bench.expectLeftAlone(everything);
    expect(
      all.some((c) => c.line === lineOf(receipt, "if qty >= 1") && c.family === "changed-operator"),
    ).toBe(true);
    const fstring = lineOf(receipt, "title = f");
    expect(all.some((c) => c.line === fstring && c.family === "changed-identifier")).toBe(true);
    await bench.expectAllParse(receipt, all);
    byVersion.set(version, all);
  });
});

describe("the helper across Python versions", () => {
  it("gives the same candidates on 3.9, 3.11 and 3.13", () => {
    const [first, ...rest] = VERSIONS.map((v) => byVersion.get(v));
    expect(first?.length).toBeGreaterThan(10);
    for (const other of rest) expect(other).toEqual(first);
  });
});
