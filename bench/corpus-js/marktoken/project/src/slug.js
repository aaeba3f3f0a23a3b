export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-');
}

/** Hands out unique slugs within one document: "setup", "setup-1", "setup-2". */
export class Slugger {
  constructor() {
    this.seen = new Map();
  }

  slug(text) {
    const base = slugify(text) || 'section';
    let slug = base;
    let n = this.seen.get(base) ?? 0;
    while (this.seen.has(slug)) slug = `${base}-${++n}`;
    this.seen.set(base, n);
    this.seen.set(slug, this.seen.get(slug) ?? 0);
    return slug;
  }
}
