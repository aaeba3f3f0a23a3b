import { createHash } from "node:crypto";
import type { TestResult } from "../lang/types.js";

/** Parts of an error message that differ from run to run of the same failure: addresses, temp paths. */
const VOLATILE: [RegExp, string][] = [
  [/\b0x[0-9a-f]{4,}\b/gi, "0x?"],
  [/\/tmp\/[^\s'":]+/g, "/tmp/?"],
];

/**
 * A failure's signature: the failing tests' ids with the type and message of each one's error
 * (run-specific parts masked), hashed. The same failure seen again (a new commit that did not
 * change it, a second workflow) has the same signature; another test or another error has not.
 */
export function failureSignature(failures: Pick<TestResult, "id" | "outcome" | "failure">[]): string {
  const lines = failures
    .map((t) => {
      const message = VOLATILE.reduce(
        (m, [pattern, mask]) => m.replace(pattern, mask),
        t.failure?.message ?? "",
      );
      return [t.id, t.failure?.type ?? t.outcome, message.trim()].join("\0");
    })
    .sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 32);
}
