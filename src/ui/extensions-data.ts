/**
 * What the screens know of the server's extensions (src/db/known-extensions.ts, live): whether
 * images can be inserted in rich text, and whether an extension's screens can save.
 */
import {
  CONTENT_IMAGE,
  IMAGES_UNAVAILABLE,
  pendingImageSource,
  readKnownExtensions,
  storeContentImage,
} from '../app/editor-images';
import type { RichTextFieldProps } from './fields/RichTextField';
import { useLiveQuery } from './live-query';

/** By entity: whether the server has its extension (absent: not known yet); undefined while loading. */
export const useKnownExtensions = (): Record<string, boolean> | undefined =>
  useLiveQuery(readKnownExtensions, []);

type ImageProps = Pick<RichTextFieldProps, 'uploadImage' | 'resolvePendingImage' | 'imagesUnavailable'>;

/** The rich-text field's image props: uploads where the server keeps images, a reason where not. */
export function useContentImages(): ImageProps {
  if (useKnownExtensions()?.[CONTENT_IMAGE] === false)
    return { resolvePendingImage: pendingImageSource, imagesUnavailable: IMAGES_UNAVAILABLE };
  return { uploadImage: storeContentImage, resolvePendingImage: pendingImageSource };
}
