/**
 * The editor's TipTap extensions: exactly the spec's toolbar (font, size, headers, lists,
 * bold, italic, underline, colour, background, alignment, link, image, clean), each through
 * TipTap's own extension. StarterKit's nodes and marks the toolbar does not offer (quotes,
 * code, strike, rules) are off, so typing shortcuts cannot make HTML the allowlist
 * (src/contract/rich-text/rich-text-allowlist.ts) would strip. No React here: the unit tests build a headless
 * editor from the same list.
 */
import type { Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import TextAlign from '@tiptap/extension-text-align';
import { TextStyleKit } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import {
  LINK_SCHEMES,
  PENDING_UPLOAD_ATTRIBUTE,
  TOOLBAR_ALIGNMENTS,
} from '../../../contract/rich-text/rich-text-allowlist';
import { urlAllowed } from '../../../contract/urls';

/**
 * TipTap's image, plus the mark of an image shown from the device until its upload: the
 * temporary id of the upload's queued add (src/contract/rich-text/rich-text-images.ts).
 */
const ImageWithPendingUpload = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      pendingUpload: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute(PENDING_UPLOAD_ATTRIBUTE),
        renderHTML: (attributes: { pendingUpload?: string | null }) =>
          attributes.pendingUpload ? { [PENDING_UPLOAD_ATTRIBUTE]: attributes.pendingUpload } : {},
      },
    };
  },
});

export function richTextExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      blockquote: false,
      code: false,
      codeBlock: false,
      horizontalRule: false,
      strike: false,
      link: {
        openOnClick: false,
        defaultProtocol: 'https',
        isAllowedUri: (url) => urlAllowed(url, LINK_SCHEMES),
      },
    }),
    TextStyleKit.configure({ lineHeight: false }),
    TextAlign.configure({ types: ['heading', 'paragraph'], alignments: [...TOOLBAR_ALIGNMENTS] }),
    ImageWithPendingUpload.configure({ inline: false, allowBase64: false }),
  ];
}
