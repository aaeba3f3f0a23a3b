/**
 * Inline markup, tried in this order at every position: a backslash escape, `code`,
 * [text](url), **strong**, *em* or _em_. Whatever matches nothing is text.
 */
const RULES = [
  { type: 'escape', pattern: /^\\([\\`*_[\]()#+.!-])/ },
  { type: 'code', pattern: /^(`+)([\s\S]+?)\1(?!`)/ },
  { type: 'link', pattern: /^\[([^\]]+)\]\(([^)\s]+)\)/ },
  { type: 'strong', pattern: /^\*\*(?=\S)([\s\S]+?)\*\*/ },
  { type: 'em', pattern: /^([*_])(?=\S)([\s\S]+?)\1/ },
];

export function tokenizeInline(text) {
  const tokens = [];
  let plain = '';
  const flush = () => {
    if (plain) tokens.push({ type: 'text', text: plain });
    plain = '';
  };
  let rest = text;
  while (rest.length > 0) {
    let matched = null;
    for (const rule of RULES) {
      const m = rule.pattern.exec(rest);
      if (m) {
        matched = { rule, m };
        break;
      }
    }
    if (!matched) {
      plain += rest[0];
      rest = rest.slice(1);
      continue;
    }
    const { rule, m } = matched;
    rest = rest.slice(m[0].length);
    if (rule.type === 'escape') {
      plain += m[1];
      continue;
    }
    flush();
    if (rule.type === 'code') tokens.push({ type: 'code', text: m[2].trim() });
    else if (rule.type === 'link') tokens.push({ type: 'link', children: tokenizeInline(m[1]), href: m[2] });
    else if (rule.type === 'strong') tokens.push({ type: 'strong', children: tokenizeInline(m[1]) });
    else tokens.push({ type: 'em', children: tokenizeInline(m[2]) });
  }
  flush();
  return tokens;
}

/** The text of inline tokens without markup (for slugs and the table of contents). */
export function plainText(tokens) {
  return tokens.map((t) => (t.children ? plainText(t.children) : t.text)).join('');
}
