/**
 * Images in rich text are files, never base64 in the HTML. Chosen with the Image button,
 * pasted or dropped, each goes through one path: the field's `uploadImage` stores the file
 * (the app queues its upload: src/app/editor-images.ts) and gives the URL the <img> shows,
 * with the mark of an image waiting for its upload (PENDING_UPLOAD_ATTRIBUTE, the upload's
 * temporary id) while it shows from the device. Without `uploadImage` (a server that cannot
 * store images) nothing is inserted and the field says why (`imagesUnavailable`).
 */
import type { Editor } from '@tiptap/core';
import { Selection } from '@tiptap/pm/state';

/** Where an inserted image shows from; `pendingUpload` while it waits for its upload. */
export interface InsertedImage {
  src: string;
  pendingUpload?: string;
}

/**
 * Stores an image the administrator inserted and returns where it shows from. A rejection
 * leaves the content unchanged and its message is shown at the field.
 */
export type UploadImage = (file: File) => Promise<InsertedImage>;

/**
 * Where an image still waiting for its upload shows from now (a fresh object URL of the
 * device's copy, or the server's URL once the upload was confirmed); null when it is gone.
 */
export type ResolvePendingImage = (pendingUpload: string) => Promise<InsertedImage | null>;

/** The image kinds the server recognises by content (server/uploads/sniff.ts). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

export function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((f) => IMAGE_TYPES.includes(f.type));
}

/** A file name as a first description: 'river-delta.png' says 'river delta'. */
function altFrom(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ');
}

/** Inserts the images at `at` (a drop) or at the selection, in the order given. */
export async function insertImages(
  editor: Editor,
  files: readonly File[],
  uploadImage: UploadImage,
  at?: number,
): Promise<void> {
  const nodes = [];
  for (const file of files) {
    const { src, pendingUpload } = await uploadImage(file);
    nodes.push({
      type: 'image',
      attrs: { src, alt: altFrom(file.name), pendingUpload: pendingUpload ?? null },
    });
  }
  if (nodes.length === 0 || editor.isDestroyed) return;
  if (at === undefined) editor.chain().focus().insertContent(nodes).run();
  else editor.chain().focus().insertContentAt(at, nodes).run();
  // The last image ends up selected; typing or pasting next would replace it. Go on below it.
  const { state } = editor;
  editor.view.dispatch(state.tr.setSelection(Selection.near(state.doc.resolve(state.selection.to), 1)));
}

/**
 * Shows each image of the content that waits for its upload from where it is now: the blob:
 * URL kept in the content died with the page that made it. An image whose upload was
 * confirmed meanwhile takes the server's URL and loses its mark. Changes made here are not
 * the administrator's edits, so they do not reach the form's value until the next edit.
 */
export async function refreshPendingImages(editor: Editor, resolve: ResolvePendingImage): Promise<void> {
  const waiting: { pos: number; id: string }[] = [];
  editor.state.doc.descendants((node, pos) => {
    if (node.type.name === 'image' && node.attrs.pendingUpload)
      waiting.push({ pos, id: node.attrs.pendingUpload });
  });
  if (waiting.length === 0) return;
  const found = await Promise.all(waiting.map((w) => resolve(w.id)));
  if (editor.isDestroyed) return;
  const tr = editor.state.tr;
  waiting.forEach(({ pos, id }, i) => {
    const now = found[i];
    const node = tr.doc.nodeAt(pos);
    if (!now || node?.type.name !== 'image' || node.attrs.pendingUpload !== id) return;
    tr.setNodeMarkup(pos, undefined, {
      ...node.attrs,
      src: now.src,
      pendingUpload: now.pendingUpload ?? null,
    });
  });
  tr.setMeta('addToHistory', false).setMeta(REFRESHED_IMAGES, true);
  editor.view.dispatch(tr);
}

/** Marks the transaction of refreshPendingImages, which the field does not report as an edit. */
export const REFRESHED_IMAGES = 'refreshedPendingImages';
