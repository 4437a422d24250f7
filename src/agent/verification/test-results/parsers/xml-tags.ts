/** One start, end or empty-element tag of an XML document, with its attributes. */
export interface XmlTag {
  name: string;
  kind: 'open' | 'close' | 'empty';
  attrs: Record<string, string>;
}

const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as the document means it: XML's five named entities and character references decoded. */
export function xmlText(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * A small, forgiving tag reader: enough to walk a JUnit report (no dependency, no DTDs; attribute values
 * have XML's predefined entities and character references decoded). Comments, CDATA sections, processing instructions
 * and doctypes are dropped first so text inside them (`<system-out>` logs) never looks like a tag.
 */
export function xmlTags(text: string): XmlTag[] {
  const clean = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!DOCTYPE[^>]*>/gi, '');
  const out: XmlTag[] = [];
  for (const m of clean.matchAll(TAG)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(ATTR)) attrs[a[1] ?? ''] = xmlText(a[2] ?? a[3] ?? '');
    out.push({ name: m[2] ?? '', kind: m[1] ? 'close' : m[4] ? 'empty' : 'open', attrs });
  }
  return out;
}
