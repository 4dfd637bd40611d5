/**
 * The rich-text allowlist, written once: the tags, attributes, inline styles and URL schemes
 * that the editor's toolbar produces (src/ui/fields/rich-text/extensions.ts), and nothing
 * else. The server cleans every `richtext` field with it before storing (sanitize-html,
 * server/entity-writes/rich-text.ts); the app cleans stored HTML with it before rendering it and
 * before loading it into the editor (DOMPurify, src/ui/safe-html/rich-text-sanitizer.ts). Anything not
 * listed goes: scripts and their text, event handlers, classes, ids, javascript: and data:
 * URLs (images are files, uploaded; never base64), style properties the toolbar cannot set.
 *
 * Two audiences. 'stored' is what the server keeps. 'device' adds what only means something
 * on the device that made it: an image waiting for its upload, shown from a blob: URL and
 * marked with PENDING_UPLOAD_ATTRIBUTE (the temporary id of its upload) so that the content's
 * request can put the server's URL in its place (rich-text-images.ts). A blob: URL is dead
 * anywhere else, so the server drops such an image.
 */
import { urlAllowed } from '../urls';

export type RichTextAudience = 'stored' | 'device';

export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
export const IMAGE_SCHEMES = ['http', 'https'] as const;
export const DEVICE_IMAGE_SCHEMES = ['blob'] as const;
export const PENDING_UPLOAD_ATTRIBUTE = 'data-pending-upload';

/** What the toolbar offers; the style patterns below accept these and values of their kind. */
export const TOOLBAR_FONTS = [
  { label: 'Sans serif', value: 'Arial, Helvetica, sans-serif' },
  { label: 'Serif', value: 'Georgia, "Times New Roman", serif' },
  { label: 'Monospace', value: '"Courier New", Courier, monospace' },
] as const;
export const TOOLBAR_SIZES = ['12px', '14px', '18px', '24px', '32px'] as const;
export const TOOLBAR_ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const;

/**
 * Inline style properties and the values each may take. No pattern admits parentheses other
 * than rgb()'s digits, a colon, a semicolon or a backslash, so no url(), expression() or
 * escape can ride in a value.
 */
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%/]+\))$/i;
export const STYLE_VALUES: Readonly<Record<string, RegExp>> = {
  'text-align': /^(left|center|right|justify)$/,
  color: COLOUR,
  'background-color': COLOUR,
  'font-family': /^[\w\s,"'-]{1,200}$/,
  'font-size': /^\d{1,3}(\.\d{1,2})?(px|pt|em|rem|%)$/,
};

/** An attribute's values: any text, a URL of these schemes, words from a list, or text of a pattern. */
export type AttributeRule =
  | { kind: 'text' }
  | { kind: 'url'; schemes: readonly string[] }
  | { kind: 'words'; words: readonly string[]; multiple?: boolean }
  | { kind: 'pattern'; pattern: RegExp };

/**
 * A temporary id made on a device (src/db/ids.ts `newTempId`): what a waiting image's mark
 * holds. Either shape: `tmp-<sequence>-<16 hex digits>`, or `tmp-<uuid v4>` (made before the
 * sequence, still in devices' queues and contents).
 */
export const TEMPORARY_ID =
  /^tmp-(?:\d{1,15}-[0-9a-f]{16}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export interface TagRule {
  attributes?: Readonly<Record<string, AttributeRule>>;
  /** Inline style properties allowed on this tag (keys of STYLE_VALUES). */
  styles?: readonly string[];
}

const TEXT: AttributeRule = { kind: 'text' };
const ALIGNED: TagRule = { styles: ['text-align'] };

const STORED_TAGS: Readonly<Record<string, TagRule>> = {
  p: ALIGNED,
  h1: ALIGNED,
  h2: ALIGNED,
  h3: ALIGNED,
  br: {},
  strong: {},
  em: {},
  u: {},
  ul: {},
  ol: { attributes: { start: TEXT, type: { kind: 'words', words: ['1', 'a', 'A', 'i', 'I'] } } },
  li: {},
  span: { styles: ['font-family', 'font-size', 'color', 'background-color'] },
  a: {
    attributes: {
      href: { kind: 'url', schemes: LINK_SCHEMES },
      target: { kind: 'words', words: ['_blank'] },
      rel: { kind: 'words', words: ['noopener', 'noreferrer', 'nofollow'], multiple: true },
    },
  },
  img: {
    attributes: {
      src: { kind: 'url', schemes: IMAGE_SCHEMES },
      alt: TEXT,
      title: TEXT,
      width: TEXT,
      height: TEXT,
    },
  },
};

const DEVICE_TAGS: Readonly<Record<string, TagRule>> = {
  ...STORED_TAGS,
  img: {
    attributes: {
      ...STORED_TAGS.img.attributes,
      src: { kind: 'url', schemes: [...IMAGE_SCHEMES, ...DEVICE_IMAGE_SCHEMES] },
      [PENDING_UPLOAD_ATTRIBUTE]: { kind: 'pattern', pattern: TEMPORARY_ID },
    },
  },
};

/** The allowed tags and their attributes for an audience. */
export function richTextTags(audience: RichTextAudience): Readonly<Record<string, TagRule>> {
  return audience === 'device' ? DEVICE_TAGS : STORED_TAGS;
}

/** Keeps the allowed declarations of an inline style, as `property: value; ...` ('' if none). */
export function filterStyle(style: string, allowed: readonly string[]): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (allowed.includes(property) && STYLE_VALUES[property]?.test(value)) kept.push(`${property}: ${value}`);
  }
  return kept.join('; ');
}

/**
 * The value an attribute keeps on a tag, or null when it must go. For sanitisers that check
 * attribute by attribute (DOMPurify's hook); sanitize-html reads the same rules as options.
 */
export function allowedAttributeValue(
  tags: Readonly<Record<string, TagRule>>,
  tag: string,
  name: string,
  value: string,
): string | null {
  const rule = tags[tag];
  if (!rule) return null;
  if (name === 'style') {
    const kept = rule.styles ? filterStyle(value, rule.styles) : '';
    return kept === '' ? null : kept;
  }
  const attribute = rule.attributes?.[name];
  if (!attribute) return null;
  if (attribute.kind === 'text') return value;
  if (attribute.kind === 'url') return urlAllowed(value, attribute.schemes) ? value : null;
  if (attribute.kind === 'pattern') return attribute.pattern.test(value) ? value : null;
  if (!attribute.multiple) return attribute.words.includes(value) ? value : null;
  const words = value.split(/\s+/).filter((w) => attribute.words.includes(w));
  return words.length === 0 ? null : words.join(' ');
}

/**
 * An image of a content folder saved with the address the tablet used: the server keeps it by
 * path (rich-text-images.ts `contentImagesByPath`), so an edit queued with the full address
 * reads the same as what the server stored of it.
 */
const OWN_IMAGE_WITH_HOST = /(<img\b[^>]*\ssrc=")https?:\/\/[^/"]+(\/[^"]*\/uploads\/cms\/)/gi;

/**
 * Rich text in a form that two serialisers of the same content agree on: the editor's
 * (TipTap: `<br>`, `style="color: red"`, `&nbsp;`) and the server's sanitiser's (sanitize-html:
 * `<br />`, `style="color:red"`, a no-break space). An offline edit compares the server's
 * stored content with what this device last saw or sent (rule 5, src/sync/merge/merge-edit.ts); without
 * this, the server's re-serialisation of this device's own earlier edit would look like
 * someone else's change and raise a conflict nobody made.
 */
export function canonicalRichText(html: string): string {
  return html
    .replace(OWN_IMAGE_WITH_HOST, '$1$2')
    .replace(/\s*\/>/g, '>')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, '\u00a0')
    .replace(/\sstyle="([^"]*)"/gi, (_, style: string) => {
      const declarations = style
        .split(';')
        .map((d) => d.replace(/\s*:\s*/, ':').trim())
        .filter((d) => d !== '');
      return ` style="${declarations.join(';')}"`;
    });
}
