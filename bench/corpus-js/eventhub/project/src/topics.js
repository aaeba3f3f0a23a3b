/**
 * Topics are dot-separated words: "order.created", "user.42.login". A pattern may use "*"
 * for exactly one word and "**" for one or more words: "order.*", "user.**".
 */

const WORD = /^[\w-]+$/;

export function checkTopic(topic) {
  if (typeof topic !== 'string' || topic === '') throw new TypeError('a topic is a non-empty string');
  for (const word of topic.split('.')) {
    if (!WORD.test(word)) throw new TypeError(`bad topic "${topic}": "${word}" is not a word`);
  }
  return topic;
}

export function isPattern(topic) {
  return topic.includes('*');
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compilePattern(pattern) {
  for (const word of pattern.split('.')) {
    if (word !== '*' && word !== '**' && !WORD.test(word)) {
      throw new TypeError(`bad pattern "${pattern}": "${word}"`);
    }
  }
  const source = escapeRegex(pattern).replaceAll('\\*\\*', '[\\w.-]+').replaceAll('\\*', '[\\w-]+');
  return new RegExp(`^${source}$`);
}
