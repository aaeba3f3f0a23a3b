/**
 * The order hypotheses are tried in, spending the experiment budget breadth-first. Pure.
 *
 * Candidates the evidence names (score STRONG or more) go first, strongest first. The rest go
 * round-robin over the suspicious lines within tiers of likelihood: the likeliest candidate of
 * every line, then the second of every line, and so on, so that one line's long tail of
 * guesses cannot use up the run before the next line is tried. The tiers overlap by
 * TIER_ROUNDS rounds, and a line's rounds are stretched by its weight (lineWeight).
 */
import { STRONG } from "./evidence.js";

export interface Schedulable {
  /** Rank of the candidate's line among the suspicious lines (0 = most suspicious). */
  lineRank: number;
  /** The generator's own likelihood, 0..1. */
  prior: number;
  /** The evidence's score (evidence.ts). */
  score: number;
  /** How suspicious the candidate's line is next to the most suspicious one, in (0, 1]; default 1. */
  weight?: number;
}

/** Likelihood tiers: the common single-token mistakes, the plausible ones, the broad guesses. */
const TIERS = [0.85, 0.45];
/** Rounds of a tier tried before the next tier's first round on the same line. */
const TIER_ROUNDS = 4;
/** The least share of rounds a line gets next to the most suspicious one. */
const MIN_WEIGHT = 0.25;

/**
 * A line's share of the rounds from its suspiciousness next to the top line's: squared, so a line
 * all failing and no passing tests run gets about twice the tries of one that half the passing
 * tests also run, and never under MIN_WEIGHT.
 */
export function lineWeight(score: number, top: number): number {
  if (!(top > 0)) return 1;
  return Math.min(1, Math.max(MIN_WEIGHT, (score / top) ** 2));
}

export function tier(likelihood: number): number {
  return TIERS.filter((min) => likelihood < min).length;
}

export function breadthFirst<T extends Schedulable>(items: T[]): T[] {
  const strong = items
    .map((item, order) => ({ item, order }))
    .filter(({ item }) => item.score >= STRONG)
    .sort(
      (a, b) =>
        b.item.score - a.item.score ||
        a.item.lineRank - b.item.lineRank ||
        b.item.prior - a.item.prior ||
        a.order - b.order,
    )
    .map(({ item }) => item);
  const likelihood = (item: T) => item.prior + item.score / 100;
  const rest = items
    .map((item, order) => ({ item, order, tier: tier(likelihood(item)) }))
    .filter(({ item }) => item.score < STRONG);
  // Within a line and tier, likeliest first; its position there is its round.
  const groups = new Map<string, typeof rest>();
  for (const entry of rest) {
    const key = `${entry.item.lineRank}:${entry.tier}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const round = new Map<T, number>();
  for (const group of groups.values()) {
    group
      .sort((a, b) => likelihood(b.item) - likelihood(a.item) || a.order - b.order)
      .forEach((entry, i) => round.set(entry.item, i));
  }
  // Tiers overlap: a few rounds of one tier come before the next tier's first round, and a less
  // suspicious line's rounds are stretched, so the top lines' broader guesses are reached sooner.
  const cost = (e: (typeof rest)[number]) => e.tier * TIER_ROUNDS + round.get(e.item)! / (e.item.weight ?? 1);
  const ordered = rest
    .sort(
      (a, b) =>
        cost(a) - cost(b) || a.tier - b.tier || a.item.lineRank - b.item.lineRank || a.order - b.order,
    )
    .map(({ item }) => item);
  return [...strong, ...ordered];
}

/**
 * The suspicious lines worth editing against the test experiments judge by: the ones it ran
 * first (an edit elsewhere cannot make it pass), up to `max`, then up to `others` it did not run,
 * for a second fault another failing test shows. Each keeps its suspiciousness order, so a
 * utility every failing test runs is not crowded out by lines only another failing test runs.
 */
export function linesToTry<T>(
  lines: readonly T[],
  reached: (line: T) => boolean | undefined,
  max: number,
  others: number,
): T[] {
  const first = lines.filter((l) => reached(l) !== false);
  const rest = lines.filter((l) => reached(l) === false);
  return [...first.slice(0, max), ...rest.slice(0, others)];
}
