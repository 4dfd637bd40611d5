/**
 * What the screens know of the server's extensions (src/db/extensions.ts, live): whether
 * images can be inserted in rich text, and whether an extension entity's screens can save.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import {
  CONTENT_IMAGE,
  IMAGES_UNAVAILABLE,
  pendingImageSource,
  readMissingExtensions,
  storeContentImage,
} from '../app/content-images';
import type { RichTextFieldProps } from './fields/RichTextField';

/** The names of the extension entities the server lacks; undefined while loading. */
export const useMissingExtensions = (): string[] | undefined => useLiveQuery(readMissingExtensions, []);

type ImageProps = Pick<RichTextFieldProps, 'uploadImage' | 'resolvePendingImage' | 'imagesUnavailable'>;

/** The rich-text field's image props: uploads where the server keeps images, a reason where not. */
export function useContentImages(): ImageProps {
  const missing = useMissingExtensions();
  if (missing?.includes(CONTENT_IMAGE))
    return { resolvePendingImage: pendingImageSource, imagesUnavailable: IMAGES_UNAVAILABLE };
  return { uploadImage: storeContentImage, resolvePendingImage: pendingImageSource };
}
