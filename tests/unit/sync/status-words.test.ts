/**
 * The sync indicator's words in the top bar when a list is received beside changes that wait
 * or failed (the whole sentence stays the indicator's label and title).
 */
import { describe, expect, it } from 'vitest';
import { progressText, shownStatus } from '../../../src/app/sync-status/status-words';

const pages = ['book_pages', { received: 40_000, total: 100_000 }] as const;
const receivingPages = progressText(...pages);

describe('shownStatus', () => {
  it('shows every part whole when the state has few', () => {
    expect(shownStatus(['Online', 'syncing', receivingPages], 2, pages)).toBe(
      'Online · syncing · Book pages 40,000 of 100,000',
    );
    expect(shownStatus(['Server unreachable', receivingPages, '120 waiting'], 1, pages)).toBe(
      'Server unreachable · Book pages 40,000 of 100,000 · 120 waiting',
    );
    expect(shownStatus(['Server unreachable', '1 waiting', '1 failed'], 1)).toBe(
      'Server unreachable · 1 waiting · 1 failed',
    );
  });

  it('shows a list being received as its share beside changes waiting and failed', () => {
    expect(shownStatus(['Server unreachable', receivingPages, '120 waiting', '3 failed'], 1, pages)).toBe(
      'Server unreachable · Book pages 40% · 120 waiting · 3 failed',
    );
  });

  it('never shows a list as done before its last row arrives', () => {
    const nearly = ['students', { received: 99_999, total: 100_000 }] as const;
    expect(shownStatus(['Offline', progressText(...nearly), '2 waiting', '1 failed'], 1, nearly)).toBe(
      'Offline · Students 99% · 2 waiting · 1 failed',
    );
  });

  it('leaves the list to the label when every part is there, the changes and the advice shown whole', () => {
    const parts = ['Signed out', receivingPages, '120 waiting', '3 failed', 'sign in to send'];
    expect(shownStatus(parts, 1, pages)).toBe('Signed out · 120 waiting · 3 failed · sign in to send');
    expect(parts).toHaveLength(5);
  });
});
