import { mention } from "./inert.js";

/**
 * The `/explain` reply: the audit (renderAudit's Markdown, which opens with its
 * heading) with the heading on the reply's first line, so GitHub renders it as a
 * heading, and who asked on the line after it.
 */
export function explainReply(audit: string, requestedBy?: string): string {
  const [heading = "", ...rest] = audit.trimStart().split("\n");
  if (!heading.startsWith("#")) throw new Error("explainReply: the audit must open with its heading");
  const asked = requestedBy ? [`Requested by ${mention(requestedBy)}.`, ""] : [];
  return [heading, "", ...asked, ...rest.join("\n").trimStart().split("\n")].join("\n");
}
