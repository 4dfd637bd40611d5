/**
 * Rich text (subject content) with TipTap. Loaded on demand: the editor is large and only
 * the subject forms need it. The editable area carries the field's label as its accessible name.
 */
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type FieldProps, fieldId, Label } from './types';

const TOOLS = [
  { label: 'Bold', run: (c: ChainLike) => c.toggleBold() },
  { label: 'Italic', run: (c: ChainLike) => c.toggleItalic() },
  { label: 'Heading', run: (c: ChainLike) => c.toggleHeading({ level: 2 }) },
  { label: 'Bullet list', run: (c: ChainLike) => c.toggleBulletList() },
  { label: 'Numbered list', run: (c: ChainLike) => c.toggleOrderedList() },
] as const;

type ChainLike = ReturnType<NonNullable<ReturnType<typeof useEditor>>['chain']>;

export default function RichTextField({ name, spec, value, onChange }: FieldProps) {
  const editor = useEditor({
    extensions: [StarterKit],
    content: String(value),
    editorProps: {
      attributes: {
        id: fieldId(name),
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': spec.label,
        class: 'richtext-area',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  return (
    <div className="field">
      <Label name={name} spec={spec} />
      <div className="richtext">
        <div className="richtext-tools" role="toolbar" aria-label={`${spec.label} formatting`}>
          {TOOLS.map((tool) => (
            <button
              key={tool.label}
              type="button"
              onClick={() => editor && tool.run(editor.chain().focus()).run()}
            >
              {tool.label}
            </button>
          ))}
        </div>
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
