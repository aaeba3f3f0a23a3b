import type { Signal } from "../../result.js";

/**
 * A signal that tells a correct patch from a merely plausible one, from what execution (or the
 * patch's own text) shows. `tripped`: the patch shows the anti-pattern, and `evidence` names it;
 * `measured: false`: nothing could be measured (the report shows ➖, never "fine").
 */
export type PatchSignal = Signal;

export const SIGNAL_NAMES: Record<PatchSignal["id"], string> = {
  "code-silenced": "no code silenced",
  condition: "conditions still test their subject",
  "beyond-failing-tests": "no behaviour change beyond the failing tests",
  "decisive-observation": "the fixed line decides the failing test",
};

export function notMeasured(id: PatchSignal["id"], why: string): PatchSignal {
  return {
    id,
    name: SIGNAL_NAMES[id],
    measured: false,
    tripped: false,
    value: "not measured",
    evidence: why,
  };
}

/** A signal that was measured: tripped or clear, with its value and evidence. */
export function measured(
  id: PatchSignal["id"],
  tripped: boolean,
  value: string,
  evidence: string,
): PatchSignal {
  return { id, name: SIGNAL_NAMES[id], measured: true, tripped, value, evidence };
}
