import { auditVerdict, type Audit, type Claim } from "../result.js";
import { codeSpan as q } from "../text.js";
import { cell, code, text } from "./inert.js";

const MAX_CHANGES = 20;

const ICON: Record<Claim["verdict"], string> = { confirmed: "✅", contradicted: "❌", unverified: "❔" };
const HEADLINE = {
  confirmed: "✅ the claims checked hold up",
  contradicted: "❌ execution contradicts at least one claim",
  "not-run": "❔ no claim could be checked",
} as const;

const table = (header: string[], rows: string[][]): string[] => [
  `| ${header.join(" | ")} |`,
  `|${header.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${r.map((c) => cell(c)).join(" | ")} |`),
];

/** The audit as markdown: the PR body's audit section and the `/explain` reply. Pure. */
export function renderAudit(audit: Audit, options: { heading?: string } = {}): string {
  const out: string[] = [`### ${options.heading ?? "Audit"}: ${HEADLINE[auditVerdict(audit)]}`, ""];
  out.push(
    "Every claim below was checked by running the test suite and the recorded calls to the changed " +
      "functions on both sides of the change.",
    "",
  );
  if (audit.claims.length > 0) {
    out.push(
      ...table(
        ["Verdict", "Claim", "Evidence"],
        audit.claims.map((c) => [`${ICON[c.verdict]} ${c.verdict}`, c.text, c.evidence]),
      ),
      "",
    );
  } else {
    out.push("The explanation makes no claim to check.", "");
  }
  const revised = audit.claims.filter((c) => c.revised);
  if (revised.length > 0) {
    out.push("**Revised explanation**", "", ...revised.map((c) => `- ${text(c.revised ?? "")}`), "");
  }
  if (audit.behaviourChanges.length > 0) {
    const shown = audit.behaviourChanges.slice(0, MAX_CHANGES);
    out.push(
      "**Behaviour changes** (before → after)",
      "",
      ...table(
        ["", "Test or call", "Before", "After"],
        shown.map((b) => [
          b.kind,
          q(b.subject) + (b.test && b.kind === "call" ? ` (in ${q(b.test)})` : ""),
          q(b.before),
          q(b.after),
        ]),
      ),
    );
    const more = audit.behaviourChanges.length - shown.length;
    out.push(...(more > 0 ? ["", `…and ${more} more (see result.json).`] : []), "");
  } else {
    out.push("**Behaviour changes:** none observed in the tests or the recorded calls.", "");
  }
  if (audit.unverified.length > 0) {
    out.push(
      `**Unverified:** no test reaches ${audit.unverified.map((f) => code(f)).join(", ")}, so nothing here checks what the change does there.`,
      "",
    );
  }
  if (audit.notes.length > 0) {
    out.push(
      "<details><summary>Notes</summary>",
      "",
      ...audit.notes.map((n) => `- ${text(n)}`),
      "",
      "</details>",
      "",
    );
  }
  return out.join("\n").trimEnd() + "\n";
}
