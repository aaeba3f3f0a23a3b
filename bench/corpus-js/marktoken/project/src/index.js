import { parseBlocks } from './block.js';
import { renderBlocks } from './render.js';
import { Slugger } from './slug.js';
import { buildToc, renderToc } from './toc.js';

export { parseBlocks } from './block.js';
export { escapeHtml, safeUrl } from './escape.js';
export { plainText, tokenizeInline } from './inline.js';
export { renderInline } from './render.js';
export { slugify, Slugger } from './slug.js';
export { buildToc, renderToc } from './toc.js';

/** Markdown to HTML, with a table of contents of its headings. */
export function markdown(source, { toc = { maxLevel: 3 } } = {}) {
  const headings = [];
  const html = renderBlocks(parseBlocks(source), { slugger: new Slugger(), headings });
  const tree = toc ? buildToc(headings, toc) : [];
  return { html, headings, toc: tree, tocHtml: renderToc(tree) };
}
