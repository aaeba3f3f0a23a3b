import type { PatchSignal } from "../audit/signals/index.js";

/**
 * Which validated candidate to propose: the first (in the engine's order) that trips no
 * signal; when every one trips a signal, the engine's first. A candidate that trips a signal
 * never beats one that does not. Pure.
 */
export function rankCandidates<T>(candidates: { item: T; signals: PatchSignal[] }[]): T | undefined {
  const clear = candidates.find((c) => !c.signals.some((s) => s.tripped));
  return (clear ?? candidates[0])?.item;
}
