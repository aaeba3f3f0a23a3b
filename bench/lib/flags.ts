/** The flags a report shows, and how well they separate correct patches from wrong ones. Pure. */

export interface ShownFlag {
  icon: "✅" | "⚠️" | "❌" | "➖";
  name: string;
  value: string;
}

/** The rows of a report's confidence table (`| ICON name | value | evidence |`). */
export function reportFlags(report: string): ShownFlag[] {
  const flags: ShownFlag[] = [];
  let inTable = false;
  for (const line of report.split("\n")) {
    if (line.startsWith("| confidence |")) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (!line.startsWith("|")) break;
    const m = /^\| (✅|⚠️|❌|➖) ([^|]+?) \| ((?:\\\||[^|])*?) \|/.exec(line);
    if (m) flags.push({ icon: m[1] as ShownFlag["icon"], name: m[2]!, value: m[3]! });
  }
  return flags;
}

/** A plausible patch, judged by the held-out tests, with the flags its report showed. */
export interface JudgedPatch {
  id: string;
  group: string;
  correct: boolean;
  flags: ShownFlag[];
}

export interface FlagPrecision {
  wrong: number;
  /** Wrong patches carrying a ⚠️ or ❌ (each names its reason in its evidence). */
  wrongWarned: number;
  correct: number;
  /** Correct patches with no ⚠️ or ❌ at all. */
  correctClear: number;
  /** Correct patches whose every flag is ✅ (no ➖ either). */
  correctAllOk: number;
  /** Per flag name: how often it warned on wrong and on correct patches. */
  perFlag: Record<string, { wrong: number; correct: number }>;
}

const warns = (f: ShownFlag) => f.icon === "⚠️" || f.icon === "❌";

export function flagPrecision(patches: JudgedPatch[]): FlagPrecision {
  const out: FlagPrecision = {
    wrong: 0,
    wrongWarned: 0,
    correct: 0,
    correctClear: 0,
    correctAllOk: 0,
    perFlag: {},
  };
  for (const p of patches) {
    const warned = p.flags.filter(warns);
    for (const f of warned) {
      const row = (out.perFlag[f.name] ??= { wrong: 0, correct: 0 });
      row[p.correct ? "correct" : "wrong"] += 1;
    }
    if (p.correct) {
      out.correct += 1;
      if (warned.length === 0) out.correctClear += 1;
      if (p.flags.every((f) => f.icon === "✅")) out.correctAllOk += 1;
    } else {
      out.wrong += 1;
      if (warned.length > 0) out.wrongWarned += 1;
    }
  }
  return out;
}
