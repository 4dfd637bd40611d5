/**
 * The app's rich-text sanitiser: DOMPurify configured from the shared allowlist
 * (src/contract/rich-text/rich-text-allowlist.ts), the same one the server applies with sanitize-html.
 * DOMPurify checks attribute names globally, so a hook applies the allowlist's per-tag rules: which
 * attributes a tag may carry, URL schemes per tag, and the inline style properties and
 * values the toolbar sets. Loaded on demand (SafeHtml, the editor), never in the first bundle.
 */
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import {
  allowedAttributeValue,
  type RichTextAudience,
  richTextTags,
  type TagRule,
} from '../../contract/rich-text/rich-text-allowlist';

type Tags = Readonly<Record<string, TagRule>>;

function configFor(tags: Tags): Config {
  const attributes = new Set<string>(['style']);
  const schemes = new Set<string>();
  for (const rule of Object.values(tags)) {
    for (const [name, a] of Object.entries(rule.attributes ?? {})) {
      attributes.add(name);
      if (a.kind === 'url') for (const s of a.schemes) schemes.add(s);
    }
  }
  return {
    ALLOWED_TAGS: Object.keys(tags),
    ALLOWED_ATTR: [...attributes],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    // DOMPurify's own URL check, narrowed to the allowlist's schemes; the hook is per tag.
    ALLOWED_URI_REGEXP: new RegExp(
      `^(?:(?:${[...schemes].join('|')}):|[^a-z]|[a-z+.-]+(?:[^a-z+.\\-:]|$))`,
      'i',
    ),
  };
}

function purifierFor(tags: Tags): DOMPurify {
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const kept = allowedAttributeValue(tags, node.nodeName.toLowerCase(), data.attrName, data.attrValue);
    if (kept === null) data.keepAttr = false;
    else data.attrValue = kept;
  });
  // An image whose source was refused is dropped whole, as the server does.
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'IMG' && !node.hasAttribute('src')) node.remove();
  });
  purify.setConfig(configFor(tags));
  return purify;
}

const purifiers = new Map<RichTextAudience, DOMPurify>();

/**
 * Rich text cleaned for this device ('device' keeps images waiting for upload), or as the
 * server stores it ('stored').
 */
export function sanitizeRichText(html: string, audience: RichTextAudience = 'device'): string {
  let purify = purifiers.get(audience);
  if (!purify) {
    purify = purifierFor(richTextTags(audience));
    purifiers.set(audience, purify);
  }
  return purify.sanitize(html);
}
