/**
 * A thumbnail that opens its image large in a dialog, so an administrator can check a page
 * scan without downloading it. The platform's modal dialog brings focus in, Escape and the
 * backdrop out; focus goes back to the thumbnail.
 */
import { useRef } from 'react';
import type { FileRule } from '../../contract/entity';
import { useFileUrl } from '../fields/file-url';

export function ImageThumbnail({
  rule,
  value,
  width,
  label,
}: {
  rule: FileRule | undefined;
  value: unknown;
  width: number;
  /** What the image is, e.g. 'Page Image: Good Morning: opener'. */
  label: string;
}) {
  const url = useFileUrl(rule, value);
  const dialog = useRef<HTMLDialogElement>(null);
  if (!url) return null;
  return (
    <>
      <button
        type="button"
        className="thumb-button"
        aria-label={`Show large: ${label}`}
        onClick={() => dialog.current?.showModal()}
      >
        <img src={url} alt="" width={width} className="thumb" />
      </button>
      <dialog
        ref={dialog}
        className="image-dialog"
        aria-label={label}
        onClick={(e) => {
          // A tap on the backdrop (the dialog itself, outside its content) closes it.
          if (e.target === dialog.current) dialog.current?.close();
        }}
        onKeyDown={() => {}}
      >
        <div className="image-dialog-body">
          <img src={url} alt={label} />
          <form method="dialog">
            <button type="submit" className="button">
              Close
            </button>
          </form>
        </div>
      </dialog>
    </>
  );
}
