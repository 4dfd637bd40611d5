/**
 * Rich text (subject content, About Us, Terms) with TipTap and the spec's whole toolbar
 * (rich-text/Toolbar.tsx, extensions.ts). Loaded on demand: the editor is large and only some
 * forms need it. The editable area carries the field's label as its accessible name. What
 * comes in is cleaned with the shared allowlist first (stored content, pasted HTML), so the
 * editor never holds what the server would strip. Images are files, never base64: see
 * rich-text/images.ts and the `uploadImage` and `resolvePendingImage` props.
 */
import type { Editor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { sanitizeRichText } from '../safe-html/rich-text-sanitizer';
import { richTextExtensions } from './rich-text/extensions';
import {
  IMAGE_TYPES,
  imageFiles,
  insertImages,
  REFRESHED_IMAGES,
  type ResolvePendingImage,
  refreshPendingImages,
  type UploadImage,
} from './rich-text/images';
import { LinkForm } from './rich-text/LinkForm';
import { Toolbar } from './rich-text/Toolbar';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, Label } from './types';
import './rich-text/rich-text.css';

export type { InsertedImage, ResolvePendingImage, UploadImage } from './rich-text/images';

export interface RichTextFieldProps extends FieldProps {
  /**
   * Stores an inserted image (Image button, paste or drop) and returns where it shows from.
   * Without it no image can be inserted, and `imagesUnavailable` says why.
   */
  uploadImage?: UploadImage;
  /** Where an image of the content that waits for its upload shows from now. */
  resolvePendingImage?: ResolvePendingImage;
  /** Why images cannot be inserted, when there is no `uploadImage`. */
  imagesUnavailable?: string;
}

const NO_IMAGES = 'Images cannot be inserted here.';

export default function RichTextField({
  name,
  spec,
  value,
  onChange,
  required,
  uploadImage,
  resolvePendingImage,
  imagesUnavailable,
  error,
}: RichTextFieldProps) {
  const id = fieldId(name);
  const [linkOpen, setLinkOpen] = useState(false);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const chooser = useRef<HTMLInputElement>(null);
  // The editor's paste and drop handlers are made once; they read the latest prop from here.
  const upload = useRef(uploadImage);
  upload.current = uploadImage;
  const unavailable = useRef(imagesUnavailable);
  unavailable.current = imagesUnavailable;
  const current = useRef<Editor | null>(null);

  const addImages = (files: File[], at?: number) => {
    const editor = current.current;
    if (!editor || files.length === 0) return;
    const store = upload.current;
    if (!store) {
      setImageProblem(unavailable.current ?? NO_IMAGES);
      return;
    }
    setImageProblem(null);
    insertImages(editor, files, store, at).catch((error: unknown) => {
      setImageProblem(
        `The image could not be added: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };

  // Read once, when the editor is made; later renders (each keystroke) do not redo them.
  const [extensions] = useState(richTextExtensions);
  const [content] = useState(() => sanitizeRichText(String(value)));
  const editor = useEditor({
    extensions,
    content,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': spec.label,
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
      if (!transaction.getMeta(REFRESHED_IMAGES)) onChange(e.isEmpty ? '' : e.getHTML());
    },
  });
  current.current = editor;
  // Images that wait for their upload show from where they are now (the stored blob: URL is dead).
  useEffect(() => {
    if (editor && resolvePendingImage)
      refreshPendingImages(editor, resolvePendingImage).catch((error: unknown) => console.warn(error));
  }, [editor, resolvePendingImage]);
  // The editable area's error state, as the other controls have it (aria-invalid, described by the error).
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

  return (
    <div className={fieldClass(error, true)}>
      <Label name={name} spec={spec} />
      <FieldError name={name} error={error} />
      <div className="richtext">
        {editor && (
          <Toolbar
            editor={editor}
            idPrefix={id}
            label={spec.label}
            linkFormId={`${id}-link`}
            linkOpen={linkOpen}
            onLink={() => setLinkOpen((open) => !open)}
            onImage={() => {
              // Where no image can be stored, say so at once rather than after a file is chosen.
              if (upload.current) chooser.current?.click();
              else setImageProblem(imagesUnavailable ?? NO_IMAGES);
            }}
          />
        )}
        {editor && linkOpen && (
          <LinkForm editor={editor} id={`${id}-link`} onClose={() => setLinkOpen(false)} />
        )}
        <input
          ref={chooser}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          multiple
          hidden
          tabIndex={-1}
          onChange={(e) => {
            addImages(imageFiles(e.target.files));
            e.target.value = '';
          }}
        />
        <EditorContent editor={editor} />
      </div>
      {imageProblem && (
        <p className="form-error" role="alert">
          {imageProblem}
        </p>
      )}
    </div>
  );
}
