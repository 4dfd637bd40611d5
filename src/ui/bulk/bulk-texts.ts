/** The words of bulk actions: plain and short, counted. */
import type { EntityNames } from '../../contract/entity';

export const count = (n: number, names: EntityNames) => `${n} ${n === 1 ? names.one : names.many}`;

export const bulkTexts = {
  selected: (n: number) => `${n} selected`,
  selectAll: (n: number) => `Select all ${n} matching`,
  allSelected: (n: number) => `All ${n} matching selected`,
  selecting: 'Selecting…',
  clear: 'Clear selection',
  queueing: (done: number, total: number) => `Queueing ${done} of ${total}…`,
  statusDone: (n: number, names: EntityNames, value: string) => `${count(n, names)} ${value.toLowerCase()}`,
  statusAlready: (n: number, value: string) => `${n} already ${value.toLowerCase()}`,
  confirmDelete: (n: number, names: EntityNames) => `Delete ${count(n, names)}?`,
  deleted: (n: number, names: EntityNames) => `${count(n, names)} deleted`,
  notDeleted: (n: number) => `${n} could not be deleted`,
  notChanged: (n: number) => `${n} could not be changed`,
  assigned: (target: EntityNames, n: number, names: EntityNames) =>
    `${target.Many} assigned to ${count(n, names)}`,
  removed: (target: EntityNames, n: number, names: EntityNames) =>
    `${target.Many} removed from ${count(n, names)}`,
  hadThem: (n: number) => `${n} already had them`,
  lackedThem: (n: number) => `${n} did not have them`,
  nothing: (names: EntityNames) => `No ${names.many} changed`,
  undone: (n: number, names: EntityNames) => `Undone for ${count(n, names)}`,
  notUndone: (n: number) => `${n} could not be undone: already sent or changed since`,
  failed: (names: EntityNames) => `The selected ${names.many} could not be changed`,
};
