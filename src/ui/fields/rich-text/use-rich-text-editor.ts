import type { Editor } from '@tiptap/core';
import { useEditor } from '@tiptap/react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { sanitizeRichText } from '../../safe-html/rich-text-sanitizer';
import { controlState } from '../types';
import { richTextExtensions } from './extensions';
import { imageFiles, REFRESHED_IMAGES, type ResolvePendingImage, refreshPendingImages } from './images';

/**
 * The TipTap editor of a rich-text field: its editable area named by the field's label, pasted
 * HTML cleaned with the shared allowlist, pasted and dropped image files handed to `addImages`,
 * and each change but an image refresh reported through `onChange` ('' when empty).
 */
export function useRichTextEditor({
  id,
  label,
  required,
  value,
  onChange,
  addImages,
}: {
  id: string;
  label: string;
  required: boolean | undefined;
  value: unknown;
  onChange: (value: string) => void;
  addImages: (files: File[], at?: number) => void;
}): Editor | null {
  // Read once, when the editor is made; later renders (each keystroke) do not redo them.
  const [extensions] = useState(richTextExtensions);
  const [content] = useState(() => sanitizeRichText(String(value)));
  /** The value the editor holds: what it was made with, or what it last reported. */
  const held = useRef(String(value));
  const editor = useEditor({
    extensions,
    content,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        ...(required ? { 'aria-required': 'true' } : {}),
        class: 'richtext-area',
      },
      transformPastedHTML: (html) => sanitizeRichText(html),
      handlePaste: (_view, event) => {
        const files = imageFiles(event.clipboardData?.files);
        if (files.length === 0) return false;
        addImages(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = moved ? [] : imageFiles(event.dataTransfer?.files);
        if (files.length === 0) return false;
        addImages(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
    },
    onUpdate: ({ editor: e, transaction }) => {
      if (transaction.getMeta(REFRESHED_IMAGES)) return;
      held.current = e.isEmpty ? '' : e.getHTML();
      onChange(held.current);
    },
  });
  // A value the form set itself (its draft discarded, the record changed on another device)
  // replaces the content; the editor's own changes come back as the value it holds.
  useEffect(() => {
    if (!editor || String(value) === held.current) return;
    held.current = String(value);
    editor.commands.setContent(sanitizeRichText(held.current), { emitUpdate: false });
  }, [editor, value]);
  return editor;
}

/** Images that wait for their upload show from where they are now (the stored blob: URL is dead). */
export function usePendingImagesShown(
  editor: Editor | null,
  resolvePendingImage: ResolvePendingImage | undefined,
) {
  useEffect(() => {
    if (editor && resolvePendingImage)
      refreshPendingImages(editor, resolvePendingImage).catch((error: unknown) => console.warn(error));
  }, [editor, resolvePendingImage]);
}

/** The editable area's error state, as the other controls have it (aria-invalid, described by the error). */
export function useErrorState(editor: Editor | null, name: string, error: string | undefined) {
  useEffect(() => {
    const state = controlState(name, error);
    editor?.setOptions({
      editorProps: {
        ...editor.options.editorProps,
        attributes: {
          ...(editor.options.editorProps.attributes as Record<string, string>),
          'aria-invalid': state['aria-invalid'] ? 'true' : 'false',
          'aria-describedby': state['aria-describedby'] ?? '',
        },
      },
    });
  }, [editor, name, error]);
}

/**
 * The editable area inside a disabled fieldset (a form the role may only read) is read-only
 * too: a contenteditable does not follow its fieldset as inputs do.
 */
export function useEditableAsFieldset(editor: Editor | null, box: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const readOnly = box.current?.closest('fieldset')?.disabled ?? false;
    if (editor && editor.isEditable === readOnly) editor.setEditable(!readOnly);
  });
}
