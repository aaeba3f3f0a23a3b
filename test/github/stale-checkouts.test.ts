import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKOUT_PREFIX } from "../../src/outbound/checkout.js";
import { removeStaleCheckouts } from "../../src/outbound/stale-checkouts.js";

describe("removeStaleCheckouts (real directories)", () => {
  const root = mkdtempSync(join(tmpdir(), "hypofix-stale-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("removes checkouts older than the limit, keeps younger ones and anything else", async () => {
    const now = Date.now();
    const make = (name: string, ageMs: number) => {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "bank.py"), "x = 1\n");
      const at = new Date(now - ageMs);
      utimesSync(dir, at, at);
    };
    make(`${CHECKOUT_PREFIX}dead`, 3 * 3600_000);
    make(`${CHECKOUT_PREFIX}live`, 60_000);
    make("someone-elses-dir", 3 * 3600_000);
    const removed = await removeStaleCheckouts(3600_000, { dir: root, now });
    expect(removed).toEqual([join(root, `${CHECKOUT_PREFIX}dead`)]);
    expect(readdirSync(root).sort()).toEqual([`${CHECKOUT_PREFIX}live`, "someone-elses-dir"]);
  });
});
