import type { PatchSignal } from "../audit/signals/index.js";

/**
 * Which validated candidate to propose: the first (in the engine's order) that trips no
 * signal; when every one trips a signal, the engine's first. A candidate that trips a signal
 * never beats one that does not. Pure.
 */
export function rankCandidates<T>(candidates: { item: T; signals: PatchSignal[] }[]): T | undefined {
  return orderCandidates(candidates)[0];
}

/** Every candidate in the order they are proposed: those tripping no signal first, each group in the engine's order. Pure. */
export function orderCandidates<T>(candidates: { item: T; signals: PatchSignal[] }[]): T[] {
  const tripped = (c: { signals: PatchSignal[] }) => c.signals.some((s) => s.tripped);
  return [...candidates.filter((c) => !tripped(c)), ...candidates.filter(tripped)].map((c) => c.item);
}
