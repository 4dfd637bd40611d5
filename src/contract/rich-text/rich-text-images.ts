/**
 * Images in rich text are files of their own (src/contract/entities/content-image.ts). On the
 * device that inserts one, the content shows it from a blob: URL and marks it with
 * PENDING_UPLOAD_ATTRIBUTE naming the temporary id of the image's queued add. That mark makes
 * the content wait for the upload the way a record waits for its parent (src/sync/plan.ts,
 * src/db/mutations/queue-order.ts), and when the content is sent each marked image gets the server's URL in
 * its `src` and loses the mark (src/sync/entry-request.ts), so the server only ever stores
 * real URLs (its sanitiser would drop a blob: image anyway).
 *
 * Plain string work, no DOM (the service worker runs it): the HTML is the editor's own
 * serialisation (TipTap's getHTML), whose attributes are always double-quoted and escaped.
 */

import { CONTENT_IMAGE_FOLDER } from '../entities/content-image';
import type { EntityDescription } from '../entity';
import { PENDING_UPLOAD_ATTRIBUTE } from './rich-text-allowlist';

const IMG_TAG = /<img\b[^>]*>/gi;
const PENDING = new RegExp(`\\s${PENDING_UPLOAD_ATTRIBUTE}="([^"]*)"`, 'i');
const SRC = /\ssrc="[^"]*"/i;

/** The temporary ids of the images a piece of HTML waits for, in order, each once. */
export function pendingImageIds(html: string): string[] {
  const ids: string[] = [];
  for (const tag of html.match(IMG_TAG) ?? []) {
    const id = PENDING.exec(tag)?.[1];
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The HTML with each waiting image pointed at `urlOf(id)` and unmarked; images whose id has no
 * URL yet keep their mark and are listed in `missing`.
 */
export function replacePendingImages(
  html: string,
  urlOf: (id: string) => string | null,
): { html: string; missing: string[] } {
  const missing: string[] = [];
  const out = html.replace(IMG_TAG, (tag) => {
    const id = PENDING.exec(tag)?.[1];
    if (!id) return tag;
    const url = urlOf(id);
    if (url === null) {
      if (!missing.includes(id)) missing.push(id);
      return tag;
    }
    const unmarked = tag.replace(PENDING, '');
    const src = ` src="${escapeAttribute(url)}"`;
    return SRC.test(unmarked) ? unmarked.replace(SRC, src) : unmarked.replace(/^<img\b/i, `<img${src}`);
  });
  return { html: out, missing };
}

/** A URL's path, query and fragment: what is left once its scheme and host are taken away. */
const withoutOrigin = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');

/**
 * Where the server serves a stored content image: under the API root's path, as every upload,
 * with no scheme or host. The content travels to tablets that reach the server by other
 * addresses (a school's LAN name, its IP, a proxy); a path resolves on each of them.
 */
export function contentImageUrl(apiRoot: string, name: string): string {
  const path = withoutOrigin(apiRoot).replace(/\/+$/, '');
  return `${path}/uploads/${CONTENT_IMAGE_FOLDER}/${encodeURIComponent(name)}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The HTML with every image stored in our content image folder under `apiPath` referred to by
 * its path: a full address one tablet saved is one another tablet may not reach.
 */
export function contentImagesByPath(html: string, apiPath: string): string {
  const folder = `${apiPath.replace(/\/+$/, '')}/uploads/${CONTENT_IMAGE_FOLDER}/`;
  const ownImage = new RegExp(`(<img\\b[^>]*\\ssrc=")https?://[^/"]+(${escapeRegExp(folder)})`, 'gi');
  return html.replace(ownImage, '$1$2');
}

/** The rich-text fields among the values, by field name. */
function richTextValues(entity: EntityDescription, values: Readonly<Record<string, unknown>>) {
  const out: [string, string][] = [];
  for (const [name, spec] of Object.entries(entity.fields)) {
    const value = values[name];
    if (spec.kind === 'richtext' && typeof value === 'string') out.push([name, value]);
  }
  return out;
}

/** The temporary ids of every image the values' rich text waits for. */
export function contentImageRefs(
  entity: EntityDescription,
  values: Readonly<Record<string, unknown>>,
): string[] {
  const ids = new Set<string>();
  for (const [, html] of richTextValues(entity, values)) for (const id of pendingImageIds(html)) ids.add(id);
  return [...ids];
}

/**
 * The values with every waiting image of their rich text pointed at its server URL. `strict`:
 * null while one has no server id yet (the request cannot go); otherwise those stay marked.
 */
export function withContentImageUrls<V>(
  entity: EntityDescription,
  values: Record<string, V>,
  urlOf: (id: string) => string | null,
  strict: boolean,
): Record<string, V> | null {
  let out = values;
  for (const [name, html] of richTextValues(entity, values)) {
    if (!html.includes(PENDING_UPLOAD_ATTRIBUTE)) continue;
    const replaced = replacePendingImages(html, urlOf);
    if (strict && replaced.missing.length > 0) return null;
    out = { ...out, [name]: replaced.html as V };
  }
  return out;
}
