/**
 * Administrators' roles: four, fixed. Every role reads every list; what each may change is
 * decided here alone, by entity, so that the server's refusal, the device's hidden buttons and
 * its refusal to queue offline can never disagree.
 *
 * - Owner: everything, manages administrators, reads the audit trail.
 * - Editor: the content hierarchy, book pages, the library, questions, resource types, About
 *   Us, Terms and their images.
 * - School manager: schools, teachers, students, their statuses, book assignments and imports.
 * - Viewer: reads everything, changes nothing.
 */
import type { EntityDescription } from '../entity';

export const ROLES = ['Owner', 'Editor', 'School manager', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The role of the first administrator (ADMIN_USERNAME), and of accounts made before roles. */
export const FIRST_ROLE: Role = 'Owner';

const EDITOR_ENTITIES: ReadonlySet<string> = new Set([
  'class',
  'subject',
  'series',
  'book',
  'section',
  'unit',
  'chapter',
  'bookPage',
  'libraryResource',
  'question',
  'resourceType',
  'aboutUs',
  'terms',
  'contentImage',
]);

const SCHOOL_MANAGER_ENTITIES: ReadonlySet<string> = new Set(['school', 'teacher', 'student']);

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/** Whether `role` may add, change or delete records of `entity` (sets and actions included). */
export function mayChange(role: Role, entity: Pick<EntityDescription, 'name'>): boolean {
  if (role === 'Owner') return true;
  if (role === 'Editor') return EDITOR_ENTITIES.has(entity.name);
  if (role === 'School manager') return SCHOOL_MANAGER_ENTITIES.has(entity.name);
  return false;
}

/** Managing administrators and reading the audit trail. */
export const isOwner = (role: Role): boolean => role === 'Owner';

const withArticle = (role: Role) => `${/^[AEIOU]/.test(role) ? 'An' : 'A'} ${role}`;

/** The refusal of a change outside the role: "An Editor cannot change schools." */
export const cannotChange = (role: Role, entity: Pick<EntityDescription, 'names'>): string =>
  `${withArticle(role)} cannot change ${entity.names.many}.`;

/** The refusal of what only an Owner may do: "A Viewer cannot manage administrators." */
export const cannotManageAdmins = (role: Role): string =>
  `${withArticle(role)} cannot manage administrators.`;
export const cannotReadAudit = (role: Role): string => `${withArticle(role)} cannot read the audit trail.`;
