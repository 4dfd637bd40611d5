/**
 * Entities that exist only in tests, described like the real ones, with their tables made by
 * their own migrations (the server's `extraMigrations`, run after ours in name order).
 *
 * - Fixture Widget: what a newcomer adds, named so that no real entity takes its name,
 *   table, routes or menu label. Version 1 has a name unique across fixture widgets; version
 *   2 adds a field (a motto, required, which old rows get from the column's default), a parent
 *   (a class, optional) and a code unique within the class. ARCHITECTURE.md's recipe "Adding
 *   a field or a parent" is proved with it (tests/sync/fixture-entity.test.ts).
 * - Probe: a table whose constraints the description does not know of, so that each class of
 *   constraint violation can be met through the API (tests/server/writes/constraint-errors.test.ts):
 *   unique, exclusion, foreign key (adding and deleting), check, not null, text too long,
 *   number out of range. Real descriptions check all of these before the database can refuse.
 *
 * `registerFixtures` puts them in the shared entity list, as `src/contract/entities/index.ts`
 * does for real ones, so that server and client code in the test's process see them. Call it
 * at the top of a test file, before the server starts: each test file has its own modules.
 */

import type { Migration } from '../../server/migrations';
import { entities } from '../../src/contract/entities';
import { defineEntity, type EntityDescription } from '../../src/contract/entity';

const fixtureWidgetApi = (folder: string) => ({
  list: `${folder}/fetchfixturewidgets.php`,
  listField: 'fixture_widgets',
  get: `${folder}/getfixturewidget.php`,
  getField: 'fixture_widget',
  add: `${folder}/addfixturewidget.php`,
  update: `${folder}/updatefixturewidget.php`,
  updateIdIn: 'body' as const,
  remove: `${folder}/deletefixturewidget.php`,
  encoding: 'json' as const,
});

const fixtureWidgetBase = {
  name: 'fixtureWidget',
  table: 'fixture_widgets',
  key: 'widget_id',
  title: 'widget_name',
  names: { one: 'fixture widget', One: 'Fixture Widget', many: 'fixture widgets', Many: 'Fixture Widgets' },
  api: fixtureWidgetApi('Fixtures/FixtureWidgets'),
  routes: {
    list: '/fixture-widgets',
    add: '/addfixturewidget',
    edit: '/updatefixturewidget',
    // A newcomer's entity: its menu entry is this line, nothing in generic code.
    menu: { group: 'MASTERFILTERS', order: 1.5, label: 'Fixture Widgets' },
  },
} as const;

const widgetName = {
  kind: 'text',
  label: 'Widget Name',
  required: true,
  wire: 'widgetName',
  maxLength: 120,
  unique: true,
} as const;

export const fixtureWidgetV1 = defineEntity({
  ...fixtureWidgetBase,
  fields: { widget_name: widgetName },
  list: {
    columns: [{ field: 'widget_name', header: 'Widget Name' }],
    search: ['widget_name'],
    sort: { field: 'widget_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['widget_name'],
});

/** Version 2: a parent, a required field, and a code unique within the parent. */
export const fixtureWidgetV2 = defineEntity({
  ...fixtureWidgetBase,
  fields: {
    class_id: { kind: 'ref', ref: 'class', refName: 'class_name', label: 'Class', wire: 'selectedClass' },
    widget_name: widgetName,
    widget_code: {
      kind: 'text',
      label: 'Widget Code',
      wire: 'widgetCode',
      maxLength: 10,
      unique: { within: 'class_id' },
    },
    motto: { kind: 'text', label: 'Motto', required: true, wire: 'motto', maxLength: 80 },
  },
  list: {
    columns: [
      { field: 'widget_name', header: 'Widget Name' },
      { field: 'widget_code', header: 'Code' },
      { field: 'class_name', header: 'Class' },
      { field: 'motto', header: 'Motto' },
    ],
    search: ['widget_name'],
    sort: { field: 'widget_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['class_id', 'widget_name', 'widget_code', 'motto'],
});

/** What old rows get for the new required field: the column's default, not a touch of their rows. */
export const DEFAULT_MOTTO = 'Learning for all';

export const FIXTURE_WIDGET_V1_MIGRATIONS: readonly Migration[] = [
  {
    name: 'test_fixture_widgets_1',
    sql: `
      CREATE TABLE fixture_widgets (
        widget_id serial PRIMARY KEY,
        widget_name text NOT NULL,
        rev bigint NOT NULL DEFAULT 0
      );
      -- FieldSpec.unique: true.
      CREATE UNIQUE INDEX fixture_widgets_widget_name_unique ON fixture_widgets (widget_name) WHERE widget_name <> '';
      SELECT track_changes('fixture_widgets', 'widget_id');`,
  },
];

/** The recipe's migration: columns only; no row is touched (the server re-sends them: row-shapes.ts). */
export const FIXTURE_WIDGET_V2_MIGRATIONS: readonly Migration[] = [
  ...FIXTURE_WIDGET_V1_MIGRATIONS,
  {
    name: 'test_fixture_widgets_2',
    sql: `
      ALTER TABLE fixture_widgets ADD COLUMN class_id integer REFERENCES classes (class_id) ON DELETE RESTRICT;
      ALTER TABLE fixture_widgets ADD COLUMN widget_code text NOT NULL DEFAULT '';
      ALTER TABLE fixture_widgets ADD COLUMN motto text NOT NULL DEFAULT '${DEFAULT_MOTTO}';
      CREATE INDEX fixture_widgets_class_id ON fixture_widgets (class_id);
      -- FieldSpec.unique: { within: 'class_id' }: the parent's column first.
      CREATE UNIQUE INDEX fixture_widgets_class_code_unique ON fixture_widgets (class_id, widget_code) WHERE widget_code <> '';`,
  },
];

/** Fields whose columns hold constraints the description leaves to the database. */
export const probeEntity = defineEntity({
  name: 'probe',
  table: 'probes',
  key: 'probe_id',
  title: 'probe_name',
  names: { one: 'probe', One: 'Probe', many: 'probes', Many: 'Probes' },
  fields: {
    probe_name: { kind: 'text', label: 'Probe Name', required: true, wire: 'probeName', unique: true },
    // A class id the description does not know as a parent: only the foreign key checks it.
    class_number: { kind: 'number', label: 'Class Number', wire: 'classNumber' },
    score: { kind: 'number', label: 'Score', wire: 'score' },
    level: { kind: 'number', label: 'Level', wire: 'level' },
    code: { kind: 'text', label: 'Code', wire: 'code' },
    small: { kind: 'number', label: 'Small', wire: 'small' },
    tag: { kind: 'text', label: 'Tag', wire: 'tag' },
  },
  api: {
    list: 'Fixtures/Probes/fetchprobes.php',
    listField: 'probes',
    get: 'Fixtures/Probes/getprobe.php',
    add: 'Fixtures/Probes/addprobe.php',
    update: 'Fixtures/Probes/updateprobe.php',
    updateIdIn: 'body',
    remove: 'Fixtures/Probes/deleteprobe.php',
    encoding: 'json',
    // Its refusals carry the message under `error` too, as addlibrary.php's client reads it.
    errorField: 'error',
  },
  routes: { list: '/probes', add: '/addprobe', edit: '/updateprobe' },
  list: {
    columns: [{ field: 'probe_name', header: 'Probe Name' }],
    search: ['probe_name'],
    sort: { field: 'probe_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['probe_name', 'class_number', 'score', 'level', 'code', 'small', 'tag'],
});

export const PROBE_MIGRATIONS: readonly Migration[] = [
  {
    name: 'test_probes_1',
    sql: `
      CREATE TABLE probes (
        probe_id serial PRIMARY KEY,
        probe_name text NOT NULL,
        class_number integer REFERENCES classes (class_id) ON DELETE RESTRICT,
        score integer CHECK (score >= 0),
        level integer NOT NULL,
        code varchar(4) NOT NULL DEFAULT '',
        small smallint,
        tag text NOT NULL DEFAULT '',
        rev bigint NOT NULL DEFAULT 0,
        EXCLUDE USING btree (tag WITH =) WHERE (tag <> '')
      );
      CREATE UNIQUE INDEX probes_probe_name_unique ON probes (probe_name) WHERE probe_name <> '';
      SELECT track_changes('probes', 'probe_id');`,
  },
];

const shared = entities as EntityDescription[];

/** Puts fixture entities in the shared list (after the real ones: their parents come first). */
export function registerFixtures(...list: EntityDescription[]): void {
  for (const entity of list) if (!shared.includes(entity)) shared.push(entity);
}

/** Replaces a fixture's description by its next version, as a newer release of the app would. */
export function replaceFixture(old: EntityDescription, next: EntityDescription): void {
  const at = shared.indexOf(old);
  if (at < 0) throw new Error(`${old.name} is not registered`);
  shared[at] = next;
}
