/**
 * Images in rich text are files, never base64 in the HTML. Chosen with the Image button,
 * pasted or dropped, each goes through one path: the field's `uploadImage` gives the URL the
 * <img> shows (the caller queues the upload and may answer with a local blob: URL while
 * offline); without it the image shows from an object URL and carries
 * PENDING_UPLOAD_ATTRIBUTE, so whoever uploads it later can find it.
 */
import type { Editor } from '@tiptap/core';
import { Selection } from '@tiptap/pm/state';

/**
 * Stores an image the administrator inserted and returns the URL to put in its `src`. A
 * rejection leaves the content unchanged and its message is shown at the field.
 */
export type UploadImage = (file: File) => Promise<string>;

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
  uploadImage: UploadImage | undefined,
  at?: number,
): Promise<void> {
  const nodes = [];
  for (const file of files) {
    const src = uploadImage ? await uploadImage(file) : URL.createObjectURL(file);
    nodes.push({ type: 'image', attrs: { src, alt: altFrom(file.name), pendingUpload: !uploadImage } });
  }
  if (nodes.length === 0 || editor.isDestroyed) return;
  if (at === undefined) editor.chain().focus().insertContent(nodes).run();
  else editor.chain().focus().insertContentAt(at, nodes).run();
  // The last image ends up selected; typing or pasting next would replace it. Go on below it.
  const { state } = editor;
  editor.view.dispatch(state.tr.setSelection(Selection.near(state.doc.resolve(state.selection.to), 1)));
}
