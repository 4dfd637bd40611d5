/**
 * Rich text is cleaned before it is stored: sanitize-html with the
 * shared allowlist's 'stored' audience (src/contract/rich-text/rich-text-allowlist.ts), so whatever a client
 * sends, the database holds only what the editor's toolbar can make. Runs on the validated
 * values, before any row is written; a required field that cleans down to nothing is
 * refused like an empty one.
 */
import sanitizeHtml from 'sanitize-html';
import { type EntityDescription, type Op, wireFields } from '../../src/contract/entity';
import {
  allowedAttributeValue,
  richTextTags,
  STYLE_VALUES,
} from '../../src/contract/rich-text/rich-text-allowlist';
import { contentImagesByPath } from '../../src/contract/rich-text/rich-text-images';
import type { Validated } from '../../src/contract/validation';
import { API_PREFIX } from '../http/api-prefix';

/**
 * sanitize-html's options from the allowlist. Tags, attribute names, URL schemes and styles
 * are sanitize-html's own checks; attributes limited to a list of words or a pattern go through
 * the allowlist's function first, because sanitize-html would keep such an attribute, emptied.
 */
function optionsFromAllowlist(): sanitizeHtml.IOptions {
  const tags = richTextTags('stored');
  const allowedAttributes: Record<string, string[]> = {};
  const allowedStyles: Record<string, Record<string, RegExp[]>> = {};
  const allowedSchemesByTag: Record<string, string[]> = {};
  const transformTags: Record<string, sanitizeHtml.Transformer> = {};
  for (const [tag, rule] of Object.entries(tags)) {
    const attributes = Object.keys(rule.attributes ?? {});
    for (const a of Object.values(rule.attributes ?? {})) {
      if (a.kind === 'url') allowedSchemesByTag[tag] = [...a.schemes];
      if (a.kind === 'words' || a.kind === 'pattern')
        transformTags[tag] = (tagName, attribs) => ({ tagName, attribs: keepWords(tag, attribs) });
    }
    if (rule.styles) {
      attributes.push('style');
      allowedStyles[tag] = Object.fromEntries(rule.styles.map((p) => [p, [STYLE_VALUES[p]]]));
    }
    allowedAttributes[tag] = attributes;
  }

  function keepWords(tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
    const out: sanitizeHtml.Attributes = {};
    for (const [name, value] of Object.entries(attribs)) {
      const rule = tags[tag].attributes?.[name];
      const checked = rule?.kind === 'words' || rule?.kind === 'pattern';
      const kept = checked ? allowedAttributeValue(tags, tag, name, value) : value;
      if (kept !== null) out[name] = kept;
    }
    return out;
  }

  return {
    allowedTags: Object.keys(tags),
    allowedAttributes,
    allowedStyles,
    allowedSchemes: [],
    allowedSchemesByTag,
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    transformTags,
    disallowedTagsMode: 'discard',
    // An image whose source was refused (a blob: preview, a data: URL) is dropped whole.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  };
}

const OPTIONS = optionsFromAllowlist();
const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: ['img'], allowedAttributes: {} };

/** The HTML as the server stores it: cleaned, and its own images referred to by path. */
export function cleanRichText(html: string): string {
  return contentImagesByPath(sanitizeHtml(html, OPTIONS), API_PREFIX);
}

/** Whether cleaned HTML still says something: text or an image. */
function hasContent(html: string): boolean {
  const text = sanitizeHtml(html, TEXT_ONLY);
  return text.includes('<img') || text.replace(/&nbsp;|\s/g, '') !== '';
}

/** Cleans the entity's rich-text fields in validated wire values (keyed by wire name). */
export function cleanRichTextFields(entity: EntityDescription, op: Op, checked: Validated): Validated {
  if (!checked.ok) return checked;
  const value = { ...checked.value };
  for (const [, spec] of wireFields(entity, op)) {
    const raw = value[spec.wire];
    if (spec.kind !== 'richtext' || typeof raw !== 'string') continue;
    const clean = cleanRichText(raw);
    if (spec.required && !hasContent(clean)) return { ok: false, message: `${spec.label} is required` };
    value[spec.wire] = clean;
  }
  return { ok: true, value };
}
