/**
 * The migrations, imported as text (Vite's `?raw`) so that they are bundled into
 * dist-server/index.js and need no folder beside it at run time. Add each new file here;
 * tests/server/operations/migrations.test.ts fails when a file of this folder is missing from the list.
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
import rowShapesAndTeacherCodes from './011_row_shapes_and_teacher_codes.sql?raw';
import idempotencyOwner from './012_idempotency_owner.sql?raw';
import audit from './013_audit.sql?raw';
import fileStorage from './014_file_storage.sql?raw';
import searchGrams from './015_search_grams.sql?raw';
import searchGramLog from './016_search_gram_log.sql?raw';
import standardLists from './017_standard_lists.sql?raw';
import searchKeys from './018_search_keys.sql?raw';
import contentImagePaths from './019_content_image_paths.sql?raw';
import uniqueEmails from './020_unique_emails.sql?raw';
import originalFileNames from './021_original_file_names.sql?raw';
import changePokes from './022_change_pokes.sql?raw';
import adminRoles from './023_admin_roles.sql?raw';
import sessionPokes from './024_session_pokes.sql?raw';

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
  { name: '011_row_shapes_and_teacher_codes', sql: rowShapesAndTeacherCodes },
  { name: '012_idempotency_owner', sql: idempotencyOwner },
  { name: '013_audit', sql: audit },
  { name: '014_file_storage', sql: fileStorage },
  { name: '015_search_grams', sql: searchGrams },
  { name: '016_search_gram_log', sql: searchGramLog },
  { name: '017_standard_lists', sql: standardLists },
  { name: '018_search_keys', sql: searchKeys },
  { name: '019_content_image_paths', sql: contentImagePaths },
  { name: '020_unique_emails', sql: uniqueEmails },
  { name: '021_original_file_names', sql: originalFileNames },
  { name: '022_change_pokes', sql: changePokes },
  { name: '023_admin_roles', sql: adminRoles },
  { name: '024_session_pokes', sql: sessionPokes },
];
