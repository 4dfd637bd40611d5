/**
 * Rich text (subject content, About Us, Terms) with TipTap and the spec's whole toolbar
 * (rich-text/Toolbar.tsx, extensions.ts). Loaded on demand: the editor is large and only some
 * forms need it. The editable area carries the field's label as its accessible name. What
 * comes in is cleaned with the shared allowlist first (stored content, pasted HTML), so the
 * editor never holds what the server would strip. Images are files, never base64: see
 * rich-text/images.ts and the `uploadImage` and `resolvePendingImage` props.
 */
import { EditorContent } from '@tiptap/react';
import { useRef, useState } from 'react';
import { IMAGE_TYPES, imageFiles, type ResolvePendingImage, type UploadImage } from './rich-text/images';
import { LinkForm } from './rich-text/LinkForm';
import { Toolbar } from './rich-text/Toolbar';
import { NO_IMAGES, useImageAdding } from './rich-text/use-image-adding';
import {
  useEditableAsFieldset,
  useErrorState,
  usePendingImagesShown,
  useRichTextEditor,
} from './rich-text/use-rich-text-editor';
import { FieldError, type FieldProps, fieldClass, fieldId, Label } from './types';
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
  const images = useImageAdding(uploadImage, imagesUnavailable);
  const chooser = useRef<HTMLInputElement>(null);
  const { addImages } = images;
  const editor = useRichTextEditor({ id, label: spec.label, required, value, onChange, addImages });
  images.editor.current = editor;
  usePendingImagesShown(editor, resolvePendingImage);
  useErrorState(editor, name, error);
  const box = useRef<HTMLDivElement>(null);
  useEditableAsFieldset(editor, box);

  return (
    <div className={fieldClass(error, true)} ref={box}>
      <Label name={name} spec={spec} required={required} />
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
              if (images.canStore()) chooser.current?.click();
              else images.setProblem(imagesUnavailable ?? NO_IMAGES);
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
      {images.problem && (
        <p className="form-error" role="alert">
          {images.problem}
        </p>
      )}
    </div>
  );
}
