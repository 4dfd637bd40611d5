/**
 * Rich text (subject content) with TipTap. Loaded on demand: the editor is large and only
 * the subject forms need it. The editable area carries the field's label as its accessible name.
 */
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, Label } from './types';

const TOOLS = [
  { label: 'Bold', run: (c: ChainLike) => c.toggleBold() },
  { label: 'Italic', run: (c: ChainLike) => c.toggleItalic() },
  { label: 'Heading', run: (c: ChainLike) => c.toggleHeading({ level: 2 }) },
  { label: 'Bullet list', run: (c: ChainLike) => c.toggleBulletList() },
  { label: 'Numbered list', run: (c: ChainLike) => c.toggleOrderedList() },
] as const;

type ChainLike = ReturnType<NonNullable<ReturnType<typeof useEditor>>['chain']>;

/** The editable area's attributes: its name, and its error state as the other controls have it. */
function areaAttributes(name: string, label: string, error: string | undefined): Record<string, string> {
  const state = controlState(name, error);
  return {
    id: fieldId(name),
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-label': label,
    class: 'richtext-area',
    ...(state['aria-invalid'] ? { 'aria-invalid': 'true' } : {}),
    ...(state['aria-describedby'] ? { 'aria-describedby': state['aria-describedby'] } : {}),
  };
}

export default function RichTextField({ name, spec, value, onChange, error }: FieldProps) {
  const editor = useEditor({
    extensions: [StarterKit],
    content: String(value),
    editorProps: { attributes: areaAttributes(name, spec.label, error) },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: areaAttributes(name, spec.label, error) } });
  }, [editor, name, spec.label, error]);
  return (
    <div className={fieldClass(error, true)}>
      <Label name={name} spec={spec} />
      <FieldError name={name} error={error} />
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
