/**
 * The spec's toolbar: style (paragraph, headings 1 to 3), font, size, bold, italic,
 * underline, text and background colour, bullet and numbered lists, alignment, link, image
 * and clear formatting. Toggles say their state with aria-pressed; selects and colour
 * inputs have labels. After a pointer choice the text gets the focus back, so typing goes on;
 * a keyboard user stays in the toolbar (one tab stop, arrow keys between controls).
 */
import type { ChainedCommands, Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { type ReactNode, useRef } from 'react';
import {
  TOOLBAR_ALIGNMENTS,
  TOOLBAR_FONTS,
  TOOLBAR_SIZES,
} from '../../../contract/rich-text/rich-text-allowlist';
import { useRovingFocus } from './roving-focus';

const ALIGNMENT_LABELS: Record<(typeof TOOLBAR_ALIGNMENTS)[number], string> = {
  left: 'Align left',
  center: 'Align centre',
  right: 'Align right',
  justify: 'Justify',
};

type Style = 'p' | '1' | '2' | '3';

function toolbarState(e: Editor) {
  const text = e.getAttributes('textStyle');
  const heading = ([1, 2, 3] as const).find((level) => e.isActive('heading', { level }));
  return {
    style: (heading ? String(heading) : 'p') as Style,
    font: (text.fontFamily as string | undefined) ?? '',
    size: (text.fontSize as string | undefined) ?? '',
    color: hex(text.color, '#000000'),
    background: hex(text.backgroundColor, '#ffffff'),
    bold: e.isActive('bold'),
    italic: e.isActive('italic'),
    underline: e.isActive('underline'),
    bulletList: e.isActive('bulletList'),
    orderedList: e.isActive('orderedList'),
    align: TOOLBAR_ALIGNMENTS.find((a) => e.isActive({ textAlign: a })) ?? 'left',
  };
}

/** A colour input takes #rrggbb only; stored colours may be #rgb or rgb(). */
function hex(colour: unknown, fallback: string): string {
  if (typeof colour !== 'string') return fallback;
  if (/^#[0-9a-f]{6}$/i.test(colour)) return colour.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (!rgb) return fallback;
  return `#${rgb
    .slice(1, 4)
    .map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0'))
    .join('')}`;
}

interface ToolbarProps {
  editor: Editor;
  /** Makes the ids of the toolbar's labelled controls unique on the page. */
  idPrefix: string;
  label: string;
  linkFormId: string;
  linkOpen: boolean;
  onLink: () => void;
  onImage: () => void;
}

export function Toolbar({ editor, idPrefix, label, linkFormId, linkOpen, onLink, onImage }: ToolbarProps) {
  const state = useEditorState({ editor, selector: ({ editor: e }) => toolbarState(e) });
  const root = useRef<HTMLDivElement>(null);
  useRovingFocus(root);
  const byPointer = useRef(false);

  const run = (command: (chain: ChainedCommands) => ChainedCommands) => {
    const chain = editor.chain();
    command(byPointer.current ? chain.focus() : chain).run();
  };
  const toggle = (name: string, pressed: boolean, command: (c: ChainedCommands) => ChainedCommands) => (
    <button key={name} type="button" aria-pressed={pressed} onClick={() => run(command)}>
      {name}
    </button>
  );
  const controlId = (name: string) => `${idPrefix}-${name.toLowerCase().replace(/\s+/g, '-')}`;
  const select = (name: string, value: string, onChange: (v: string) => void, options: ReactNode) => (
    <span className="richtext-select">
      <label htmlFor={controlId(name)} className="visually-hidden">
        {name}
      </label>
      <select id={controlId(name)} value={value} onChange={(e) => onChange(e.target.value)}>
        {options}
      </select>
    </span>
  );
  const colour = (name: string, mark: string, value: string, onChange: (v: string) => void) => (
    <span className="richtext-colour">
      <label htmlFor={controlId(name)}>
        <span aria-hidden="true">{mark}</span>
        <span className="visually-hidden">{name}</span>
      </label>
      <input id={controlId(name)} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
    </span>
  );

  return (
    <div
      ref={root}
      className="richtext-tools"
      role="toolbar"
      aria-label={`${label} formatting`}
      onPointerDown={() => {
        byPointer.current = true;
      }}
      onKeyDown={() => {
        byPointer.current = false;
      }}
    >
      {select(
        'Style',
        state.style,
        (v) => run((c) => (v === 'p' ? c.setParagraph() : c.setHeading({ level: Number(v) as 1 | 2 | 3 }))),
        <>
          <option value="p">Paragraph</option>
          <option value="1">Heading 1</option>
          <option value="2">Heading 2</option>
          <option value="3">Heading 3</option>
        </>,
      )}
      {select(
        'Font',
        state.font,
        (v) => run((c) => (v === '' ? c.unsetFontFamily() : c.setFontFamily(v))),
        <>
          <option value="">Default font</option>
          {TOOLBAR_FONTS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </>,
      )}
      {select(
        'Size',
        state.size,
        (v) => run((c) => (v === '' ? c.unsetFontSize() : c.setFontSize(v))),
        <>
          <option value="">Default size</option>
          {TOOLBAR_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </>,
      )}
      {toggle('Bold', state.bold, (c) => c.toggleBold())}
      {toggle('Italic', state.italic, (c) => c.toggleItalic())}
      {toggle('Underline', state.underline, (c) => c.toggleUnderline())}
      {/* Colour inputs change on every move of the picker: they never take the focus away. */}
      {colour('Text colour', 'A', state.color, (v) => editor.chain().setColor(v).run())}
      {colour('Background colour', 'Bg', state.background, (v) => editor.chain().setBackgroundColor(v).run())}
      {toggle('Bullet list', state.bulletList, (c) => c.toggleBulletList())}
      {toggle('Numbered list', state.orderedList, (c) => c.toggleOrderedList())}
      {TOOLBAR_ALIGNMENTS.map((a) =>
        toggle(ALIGNMENT_LABELS[a], state.align === a, (c) => c.setTextAlign(a)),
      )}
      <button
        type="button"
        aria-expanded={linkOpen}
        aria-controls={linkOpen ? linkFormId : undefined}
        onClick={onLink}
      >
        Link
      </button>
      <button type="button" onClick={onImage}>
        Image
      </button>
      <button type="button" onClick={() => run((c) => c.unsetAllMarks().clearNodes().unsetTextAlign())}>
        Clear formatting
      </button>
    </div>
  );
}
