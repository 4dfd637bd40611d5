/**
 * The file fields of a multipart add or update (`kind: 'file'` with a FileRule), checked by
 * size and by real content before anything is written. No file at all is fine unless the
 * field is required: the field absent, sent empty, an empty file part, or the text `null`
 * (Add Chapter always sends chapterImage, as `null` when none was chosen). Instead of the
 * file, a field may name a finished resumable upload (`tus:<id>`, uploads/resumable.ts): it
 * is checked in the same way and then moved into place, never read into memory.
 */
import type { EntityDescription, FieldSpec, FileRule, Op } from '../../src/contract/entity';
import { wireFields } from '../../src/contract/entity';
import { cleanOriginalName, originalNameColumn } from '../../src/contract/original-file-name';
import { isUploadReference } from '../../src/contract/resumable';
import type { WireBody } from '../../src/contract/validation';
import { isUploadFolder, type UploadFolder } from '../storage/folders';
import type { UploadJournal } from '../uploads/journal';
import type { FinishedUpload } from '../uploads/resumable';
import { canDetect, detectKind, IMAGE_TYPES, SNIFF_BYTES } from '../uploads/sniff';
import type { UploadContent } from '../uploads/store';

export interface IncomingFile {
  /** The column that will hold the stored name. */
  field: string;
  folder: UploadFolder;
  data: UploadContent;
  /** Extension of the detected kind, one of the rule's types. */
  ext: string;
  /** The name the file had on the device (original-file-name.ts), when it said one. */
  originalName: string | null;
}

export type FilesCheck = { ok: true; files: IncomingFile[] } | { ok: false; message: string };

/** The finished resumable upload a field's text names; absent where the server has none. */
export type UploadLookup = (reference: string) => Promise<FinishedUpload | { refused: string }>;

export interface FileField {
  /** The column holding the stored name. */
  field: string;
  spec: FieldSpec;
  rule: FileRule;
  folder: UploadFolder;
}

/** Every file column of the entity, checked against what the server can store. */
export function fileColumns(entity: EntityDescription): FileField[] {
  return Object.entries(entity.fields)
    .filter(([, spec]) => spec.kind === 'file')
    .map(([field, spec]) => {
      const rule = spec.file;
      if (!rule) throw new Error(`${entity.name}.${field}: file field without a FileRule`);
      if (!isUploadFolder(rule.folder))
        throw new Error(`${entity.name}.${field}: unknown folder ${rule.folder}`);
      const unknown = [...rule.types, ...(rule.typesOnUpdate ?? [])].filter((t) => !canDetect(t));
      if (unknown.length > 0)
        throw new Error(`${entity.name}.${field}: cannot recognise ${unknown.join(', ')}`);
      if (originalNameColumn(field) in entity.fields)
        throw new Error(`${entity.name}.${field}: a field takes the column of its original name`);
      return { field, spec, rule, folder: rule.folder };
    });
}

/** The file fields an add or update carries, with their wire names. */
export function fileFields(entity: EntityDescription, op: Op): (FileField & { wire: string })[] {
  const sent = new Map(wireFields(entity, op).map(([name, spec]) => [name, spec.wire]));
  return fileColumns(entity).flatMap((f) => {
    const wire = sent.get(f.field);
    return wire ? [{ ...f, wire }] : [];
  });
}

const noFile = (raw: unknown) =>
  raw === undefined ||
  raw === null ||
  raw === '' ||
  raw === 'null' ||
  (raw instanceof File && raw.size === 0);

/** 'jpg, jpeg, png or gif' */
const listTypes = (types: readonly string[]) =>
  types.length > 1 ? `${types.slice(0, -1).join(', ')} or ${types.at(-1)}` : (types[0] ?? '');

/** 2 MB, 10 MB, 1.5 MB: the units of the spec's upload hints. */
const megabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

/** A file part, or the finished upload a reference names: its size, first bytes and content. */
async function received(
  raw: unknown,
  label: string,
  lookup: UploadLookup | undefined,
): Promise<
  | { size: number; head: Uint8Array; name: string | null; content: () => Promise<UploadContent> }
  | { message: string }
> {
  if (raw instanceof File) {
    const head = new Uint8Array(await raw.slice(0, SNIFF_BYTES).arrayBuffer());
    const content = async () => new Uint8Array(await raw.arrayBuffer());
    return { size: raw.size, head, name: cleanOriginalName(raw.name), content };
  }
  if (typeof raw !== 'string' || !lookup || !isUploadReference(raw))
    return { message: `${label} must be a file` };
  const upload = await lookup(raw);
  if ('refused' in upload) return { message: `${label} ${upload.refused}` };
  return {
    size: upload.size,
    head: upload.head,
    name: cleanOriginalName(upload.name),
    content: async () => upload,
  };
}

/**
 * One file field's value checked by size and content: the file to store, null when no file
 * was sent (which the caller judges), or the refusal.
 */
export async function checkFile(
  { field, spec, rule, folder }: FileField,
  raw: unknown,
  op: Op,
  lookup?: UploadLookup,
): Promise<IncomingFile | null | { message: string }> {
  if (noFile(raw)) return null;
  const file = await received(raw, spec.label, lookup);
  if ('message' in file) return file;
  const limit = op === 'update' ? (rule.maxBytesOnUpdate ?? rule.maxBytes) : rule.maxBytes;
  if (file.size > limit) return { message: `${spec.label} is larger than ${megabytes(limit)}` };
  const types = op === 'update' ? (rule.typesOnUpdate ?? rule.types) : rule.types;
  const ext = detectKind(file.head).find((e) => types.includes(e));
  if (!ext) {
    const noun = types.every((t) => IMAGE_TYPES.includes(t)) ? 'image' : 'file';
    return { message: `${spec.label} must be a ${listTypes(types)} ${noun}` };
  }
  return { field, folder, data: await file.content(), ext, originalName: file.name };
}

/** Stores a checked file: its stored name and its original one go in their columns of `cols`. */
export async function storeFile(
  uploads: UploadJournal,
  file: IncomingFile,
  cols: Record<string, unknown>,
): Promise<void> {
  cols[file.field] = await uploads.save(file.folder, file.data, file.ext);
  cols[originalNameColumn(file.field)] = file.originalName;
}

export async function checkFiles(
  fields: (FileField & { wire: string })[],
  op: Op,
  body: WireBody,
  lookup?: UploadLookup,
): Promise<FilesCheck> {
  const files: IncomingFile[] = [];
  for (const f of fields) {
    const checked = await checkFile(f, body[f.wire], op, lookup);
    if (checked === null) {
      // On update, no file means "keep the stored one".
      if (f.spec.required && op === 'add') return { ok: false, message: `${f.spec.label} is required` };
      continue;
    }
    if ('message' in checked) return { ok: false, message: checked.message };
    files.push(checked);
  }
  return { ok: true, files };
}
