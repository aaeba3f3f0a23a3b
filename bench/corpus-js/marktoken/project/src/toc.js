import { escapeHtml } from './escape.js';

/** Nests headings ({ level, text, id }) under the closest heading above them of a lower level. */
export function buildToc(headings, { minLevel = 1, maxLevel = 3 } = {}) {
  const root = { level: 0, children: [] };
  const stack = [root];
  for (const h of headings) {
    if (h.level < minLevel || h.level > maxLevel) continue;
    while (stack.length > 1 && stack[stack.length - 1].level >= h.level) stack.pop();
    const node = { level: h.level, text: h.text, id: h.id, children: [] };
    stack[stack.length - 1].children.push(node);
    stack.push(node);
  }
  return root.children;
}

export function renderToc(nodes) {
  if (nodes.length === 0) return '';
  const items = nodes
    .map((n) => `<li><a href="#${n.id}">${escapeHtml(n.text)}</a>${renderToc(n.children)}</li>`)
    .join('');
  return `<ul>${items}</ul>`;
}
