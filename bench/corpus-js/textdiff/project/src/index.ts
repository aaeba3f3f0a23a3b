export { diffStats, LineDiffer, type DiffOptions, type Op } from './differ.ts';
export { splitLines, type SplitText } from './lines.ts';
export { toHunks, unifiedDiff, type Hunk, type UnifiedOptions } from './unified.ts';
export { truncate, wrap, type WrapOptions } from './wrap.ts';
