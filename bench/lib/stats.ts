/** Summary statistics for benchmark samples. Every function refuses an empty sample
 * rather than inventing a value. */

function sorted(values: readonly number[], what: string): number[] {
  if (values.length === 0) throw new Error(`${what} of an empty sample`);
  return [...values].sort((a, b) => a - b);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error("mean of an empty sample");
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The q-th percentile (0..100) by the nearest-rank method: always one of the samples,
 * so a p95 of 20 runs is the 19th fastest, never an interpolated time nobody saw. */
export function percentile(values: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 100)) throw new Error(`percentile ${q} is outside 0..100`);
  const ordered = sorted(values, `p${q}`);
  const rank = Math.max(1, Math.ceil((q / 100) * ordered.length));
  return ordered[rank - 1] as number;
}

/** Middle value; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  const ordered = sorted(values, "median");
  const middle = Math.floor(ordered.length / 2);
  if (ordered.length % 2 === 1) return ordered[middle] as number;
  return ((ordered[middle - 1] as number) + (ordered[middle] as number)) / 2;
}

export function p95(values: readonly number[]): number {
  return percentile(values, 95);
}

export interface Summary {
  n: number;
  min: number;
  median: number;
  mean: number;
  p95: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const ordered = sorted(values, "summary");
  return {
    n: ordered.length,
    min: ordered[0] as number,
    median: median(ordered),
    mean: mean(ordered),
    p95: p95(ordered),
    max: ordered[ordered.length - 1] as number,
  };
}

/** Runs `fn` over `items` with at most `limit` in flight (the machine has two cores);
 * results keep the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
