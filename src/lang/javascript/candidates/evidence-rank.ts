import type { Context, Proposal } from "./context.js";

/** Lowers the prior of proposals the failure's evidence points at. */
export function rankByEvidence(found: Proposal[], ctx: Context): void {
  if (!ctx.evidence) return;
}
