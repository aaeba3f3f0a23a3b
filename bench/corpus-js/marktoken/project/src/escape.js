const ENTITIES = [
  [/&/g, '&amp;'],
  [/</g, '&lt;'],
  [/>/g, '&gt;'],
  [/"/g, '&quot;'],
];

export function escapeHtml(text) {
  return ENTITIES.reduce((out, [pattern, entity]) => out.replace(pattern, entity), String(text));
}

/** Only http(s), mailto and relative links survive; anything else (javascript:) becomes "#". */
export function safeUrl(url) {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return '#';
  return trimmed;
}
