/**
 * The Link tool's small inline input (not a prompt, so it works with a screen reader and a
 * touch keyboard): the address for the selected text, or for new text when nothing is
 * selected. Only http, https and mailto addresses are taken; a bare 'example.org' becomes
 * https://example.org and a bare address mailto:. Enter applies, Escape closes; neither
 * submits the surrounding form.
 */
import type { Editor } from '@tiptap/core';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { isLinkUrl } from '../../../contract/urls';

const LINK_RULE = 'A link must start with http://, https:// or mailto:';

function withScheme(typed: string): string {
  if (typed === '' || /^[a-z][a-z0-9+.-]*:/i.test(typed)) return typed;
  return typed.includes('@') && !typed.includes('/') ? `mailto:${typed}` : `https://${typed}`;
}

export function LinkForm({ editor, id, onClose }: { editor: Editor; id: string; onClose: () => void }) {
  const current: string = editor.getAttributes('link').href ?? '';
  const [href, setHref] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const remove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onClose();
  };
  const apply = () => {
    const url = withScheme(href.trim());
    if (url === '') return remove();
    if (!isLinkUrl(url)) {
      setProblem(LINK_RULE);
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] }).run();
    } else {
      chain.setLink({ href: url }).run();
    }
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  const errorId = `${id}-error`;
  return (
    <fieldset id={id} className="richtext-link">
      <legend className="visually-hidden">Link</legend>
      <label htmlFor={`${id}-href`}>Link address</label>
      <input
        ref={input}
        id={`${id}-href`}
        // Text, not url: the browser's check would hold up the surrounding form's submit.
        type="text"
        inputMode="url"
        autoComplete="url"
        value={href}
        placeholder="https://"
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem ? errorId : undefined}
        onChange={(e) => {
          setHref(e.target.value);
          setProblem(null);
        }}
        onKeyDown={onKeyDown}
      />
      <button type="button" onClick={apply}>
        Apply link
      </button>
      {current !== '' && (
        <button type="button" onClick={remove}>
          Remove link
        </button>
      )}
      <button type="button" onClick={close}>
        Cancel
      </button>
      {problem && (
        <p id={errorId} className="form-error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
