/**
 * Images inserted in rich text, for the editor (src/ui/fields/RichTextField.tsx): each is
 * queued as an add of a content image (our extension, src/contract/entities/content-image.ts)
 * and shows from the device until the server has it; the content that shows it waits for the
 * upload and goes out with the server's URL in its place (src/contract/rich-text/rich-text-images.ts).
 * A server without the extension (the PHP API) cannot store them: the editor then says so
 * instead of inserting an image that could never be delivered.
 */
import { contentImageEntity } from '../contract/entities/content-image';
import { contentImageUrl } from '../contract/rich-text/rich-text-images';
import { isTempId } from '../db/ids';
import { knownExtensions } from '../db/known-extensions';
import { resolveId } from '../db/resolve';
import { saveChange } from './records';
import { db } from './window-context';
import { API_ROOT } from './window-settings';

export interface ImageSource {
  src: string;
  /** The upload's temporary id while the image waits for it. */
  pendingUpload?: string;
}

/** Why images cannot be inserted against this server, or null when they can. */
export const IMAGES_UNAVAILABLE =
  'This server cannot store images (it has no CMS/Images/addimage.php), so images cannot be inserted in content here. Text and links are saved as usual.';

/** The API root as an absolute URL; the content's image URLs keep its path (as sync makes them). */
const apiRoot = () => new URL(API_ROOT.replace(/\/+$/, ''), globalThis.location.href).href;

/**
 * Queues the image's upload and answers where it shows from meanwhile: an object URL of the
 * file (kept for the page's life, as the editor may show it again after an undo).
 */
export async function storeContentImage(file: File): Promise<ImageSource> {
  const { key } = await saveChange({ op: 'add', entity: contentImageEntity, values: { image: file } });
  return { src: URL.createObjectURL(file), pendingUpload: key };
}

/**
 * Where an image waiting for its upload shows from now: the server's URL once the upload was
 * confirmed, else the device's copy in the queued add; null when that add was discarded.
 */
export async function pendingImageSource(id: string): Promise<ImageSource | null> {
  const name = await resolveId(db, id);
  if (!isTempId(name)) return { src: contentImageUrl(apiRoot(), name) };
  const add = await db.outbox.where('[entity+key]').equals([contentImageEntity.name, id]).first();
  const file = add?.payload.image;
  return file instanceof Blob ? { src: URL.createObjectURL(file), pendingUpload: id } : null;
}

/** What the device knows of this server's extensions, by entity (db/known-extensions.ts). */
export const readKnownExtensions = (): Promise<Record<string, boolean>> => knownExtensions(db);

export const CONTENT_IMAGE = contentImageEntity.name;
