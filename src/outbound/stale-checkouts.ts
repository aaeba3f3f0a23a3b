import { readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKOUT_PREFIX } from "./checkout.js";

/**
 * Removes checkout directories older than `maxAgeMs` (a worker killed mid-job leaves
 * its checkout behind). No live job is older than its deadline, so a checkout past
 * it belongs to nobody. Returns the directories removed.
 */
export async function removeStaleCheckouts(
  maxAgeMs: number,
  options: { dir?: string; now?: number } = {},
): Promise<string[]> {
  const root = options.dir ?? tmpdir();
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(CHECKOUT_PREFIX)) continue;
    const path = join(root, entry.name);
    const info = await stat(path).catch(() => undefined);
    if (!info || now - info.mtimeMs <= maxAgeMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
