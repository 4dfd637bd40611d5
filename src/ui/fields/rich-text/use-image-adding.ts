import type { Editor } from '@tiptap/core';
import { useRef, useState } from 'react';
import { insertImages, type UploadImage } from './images';

export const NO_IMAGES = 'Images cannot be inserted here.';

/**
 * Adding images to the editor (Image button, paste, drop): stores each file through
 * `uploadImage` and inserts it, or says why it cannot (`problem`). The editor's paste and drop
 * handlers are made once, so `addImages` reads the latest props and the editor (`editor`, set
 * by the field on each render) from refs.
 */
export function useImageAdding(uploadImage: UploadImage | undefined, imagesUnavailable: string | undefined) {
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useRef(uploadImage);
  upload.current = uploadImage;
  const unavailable = useRef(imagesUnavailable);
  unavailable.current = imagesUnavailable;
  const editor = useRef<Editor | null>(null);

  const addImages = (files: File[], at?: number) => {
    const shown = editor.current;
    if (!shown || files.length === 0) return;
    const store = upload.current;
    if (!store) {
      setProblem(unavailable.current ?? NO_IMAGES);
      return;
    }
    setProblem(null);
    insertImages(shown, files, store, at).catch((error: unknown) => {
      setProblem(`The image could not be added: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  return { problem, setProblem, canStore: () => Boolean(upload.current), editor, addImages };
}
