/**
 * Which URLs the app stores: link fields take web addresses only, and rich text's links and
 * images take the schemes of its allowlist (contract/rich-text/rich-text-allowlist.ts). Plain string checks,
 * so the server, the service worker and the window agree without a DOM.
 */

/** Spaces and control characters, which browsers drop or tolerate inside a scheme (`java\tscript:`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const SPACE_AND_CONTROL = /[\u0000-\u0020\u007f-\u009f]+/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** `//host/x` and `\\host\x` name another host while having no scheme of their own. */
const PROTOCOL_RELATIVE = /^[\\/]{2}/;

/**
 * Whether a URL in rich text may stay: its scheme is one of `schemes`, or it has none and is
 * a path on this site (`/api/uploads/...`). Mirrors sanitize-html's `naughtyHref`, so the
 * server and the app keep the same URLs.
 */
export function urlAllowed(url: string, schemes: readonly string[]): boolean {
  const compact = url.replace(SPACE_AND_CONTROL, '');
  const scheme = SCHEME.exec(compact);
  if (scheme) return schemes.includes(scheme[1].toLowerCase());
  return !PROTOCOL_RELATIVE.test(compact);
}

/** A link field's value: an absolute http or https URL (no other scheme is stored). */
export function isWebUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** A link the editor's Link tool accepts: a web address, or mailto: with an address. */
export function isLinkUrl(value: string): boolean {
  return isWebUrl(value) || /^mailto:[^\s@]+@[^\s@]+$/i.test(value);
}
