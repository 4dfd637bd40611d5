import { defineEntity } from '../entity';

/** Path of the one legacy endpoint that answers every resource-type call, told apart by `type`. */
const INDEX = 'Resources/ResourceTypes/index.php';
const at = (type: string) => ({ path: INDEX, query: { type } }) as const;

/** Entry-type codes (spec §4): the chosen type's entry type decides a library resource's inputs. */
export const ENTRY_TYPES = [
  { value: '1', label: 'Link' },
  { value: '2', label: 'File Upload' },
  { value: '3', label: 'Textarea & Link' },
  { value: '4', label: 'Iframe' },
  { value: '5', label: 'Textarea' },
  { value: '6', label: 'Audio' },
] as const;

/**
 * The fixed resource-type codes the public front-end sends as `resourceType` to addlibrary.php
 * (api-contract §3.15: V2 onward, and V1's `lessonplans`), each with the resource type it
 * stands for here: found by its title (without case), created with this entry type when the
 * server has none (a library resource's `codes`, server/entity-writes/ref-codes.ts). The entry type
 * picks the inputs our form shows for the type (entry-type-inputs.ts): documents and the
 * further materials are file uploads, audio is audio, the rest links; a video's own file and
 * link appear for every type.
 */
export const V5_RESOURCE_TYPE_CODES = {
  videos: { title: 'Videos', entry_type: 1 },
  documents: { title: 'Documents', entry_type: 2 },
  audio: { title: 'Audio', entry_type: 6 },
  interactivities: { title: 'Interactivities', entry_type: 1 },
  addnworksheets: { title: 'Additional Worksheets', entry_type: 2 },
  addnactivities: { title: 'Additional Activities', entry_type: 2 },
  answerkeys: { title: 'Answer Keys', entry_type: 2 },
  lessonplans: { title: 'Lesson Plans', entry_type: 1 },
} as const;

/**
 * Resource type (spec §3: id, title, entry_type), spec §7 "Resources and types": one path
 * dispatching on `?type=fetch|fetchEntryType|fetchType|insert|update`, the id sent as
 * `type_id`, different wire names on insert (typeTitle, entryType) and update (resourceTitle,
 * selectedEntryType), and no delete. Unlike the original's Update form, the title can be
 * edited: the original sends `resourceTitle` but had no change handler for it.
 */
export const resourceTypeEntity = defineEntity({
  name: 'resourceType',
  table: 'resource_types',
  key: 'id',
  title: 'title',
  names: { one: 'resource type', One: 'Resource Type', many: 'resource types', Many: 'Resource Types' },
  fields: {
    title: {
      kind: 'text',
      label: 'Title',
      required: true,
      wire: { add: 'typeTitle', update: 'resourceTitle' },
      maxLength: 255,
    },
    entry_type: {
      kind: 'choice',
      label: 'Resource Entry Type',
      required: true,
      wire: { add: 'entryType', update: 'selectedEntryType' },
      choices: ENTRY_TYPES,
    },
  },
  api: {
    list: at('fetch'),
    listField: 'resource_types',
    get: at('fetchType'),
    getField: 'resource_type',
    add: at('insert'),
    update: at('update'),
    updateIdIn: 'body',
    idParam: 'type_id',
    encoding: 'json',
    reads: {
      entryType: { path: at('fetchEntryType'), method: 'GET', field: 'entry_type', reply: 'entry_type' },
    },
  },
  routes: {
    list: '/resource-types',
    add: '/add-resource-type',
    edit: '/edit-resource-type',
    menu: { group: 'RESOURCES', order: 1, label: 'Resource Types' },
  },
  list: {
    columns: [
      { field: 'title', header: 'Title' },
      { field: 'entry_type', header: 'Type' },
    ],
    search: ['title'],
    sort: { field: 'id', dir: 'asc' },
    pageSize: 10,
    actions: { header: 'Actions', items: ['edit'] },
  },
  texts: {
    sno: 'S.No.',
    addButton: '+ Add Resource Type',
    empty: 'No resouce type found.',
    addSubmit: 'Save Resource Type',
    editSubmit: 'Update Resource Type',
  },
  form: ['title', 'entry_type'],
});
