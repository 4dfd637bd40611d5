/**
 * The migrations, imported as text (Vite's `?raw`) so that they are bundled into
 * dist-server/index.js and need no folder beside it at run time. Add each new file here;
 * tests/server/migrations.test.ts fails when a file of this folder is missing from the list.
 */
import init from './001_init.sql?raw';
import masterData from './002_master_data.sql?raw';
import resourceTypes from './003_resource_types.sql?raw';
import people from './004_people.sql?raw';
import loginThrottle from './005_login_throttle.sql?raw';
import emptyText from './006_empty_text.sql?raw';
import idempotencyFingerprint from './007_idempotency_fingerprint.sql?raw';
import content from './008_content.sql?raw';
import cms from './009_cms.sql?raw';
import listsAtScale from './010_lists_at_scale.sql?raw';

export interface Migration {
  /** File name without `.sql`; recorded in schema_migrations. */
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  { name: '001_init', sql: init },
  { name: '002_master_data', sql: masterData },
  { name: '003_resource_types', sql: resourceTypes },
  { name: '004_people', sql: people },
  { name: '005_login_throttle', sql: loginThrottle },
  { name: '006_empty_text', sql: emptyText },
  { name: '007_idempotency_fingerprint', sql: idempotencyFingerprint },
  { name: '008_content', sql: content },
  { name: '009_cms', sql: cms },
  { name: '010_lists_at_scale', sql: listsAtScale },
];
