import { escapeHtml, safeUrl } from './escape.js';
import { plainText, tokenizeInline } from './inline.js';

export function renderInline(tokens) {
  return tokens
    .map((t) => {
      switch (t.type) {
        case 'text':
          return escapeHtml(t.text);
        case 'code':
          return `<code>${escapeHtml(t.text)}</code>`;
        case 'strong':
          return `<strong>${renderInline(t.children)}</strong>`;
        case 'em':
          return `<em>${renderInline(t.children)}</em>`;
        case 'link':
          return `<a href="${escapeHtml(safeUrl(t.href))}">${renderInline(t.children)}</a>`;
        default:
          throw new Error(`unknown inline token ${t.type}`);
      }
    })
    .join('');
}

const inline = (text) => renderInline(tokenizeInline(text));

/** Renders blocks to HTML; headings get ids from `slugger` and are collected in `headings`. */
export function renderBlocks(blocks, { slugger, headings = [] }) {
  const out = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'heading': {
        const tokens = tokenizeInline(block.text);
        const id = slugger.slug(plainText(tokens));
        headings.push({ level: block.level, text: plainText(tokens), id });
        out.push(`<h${block.level} id="${id}">${renderInline(tokens)}</h${block.level}>`);
        break;
      }
      case 'paragraph':
        out.push(`<p>${inline(block.text)}</p>`);
        break;
      case 'list': {
        const tag = block.ordered ? 'ol' : 'ul';
        const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
        const items = block.items.map((item) => `<li>${inline(item)}</li>`).join('');
        out.push(`<${tag}${start}>${items}</${tag}>`);
        break;
      }
      case 'code': {
        const cls = block.lang ? ` class="language-${escapeHtml(block.lang)}"` : '';
        out.push(`<pre><code${cls}>${escapeHtml(block.text)}</code></pre>`);
        break;
      }
      case 'quote':
        out.push(`<blockquote>${renderBlocks(block.blocks, { slugger, headings })}</blockquote>`);
        break;
      case 'rule':
        out.push('<hr>');
        break;
      default:
        throw new Error(`unknown block ${block.type}`);
    }
  }
  return out.join('\n');
}
