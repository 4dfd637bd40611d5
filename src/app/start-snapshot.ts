/**
 * The start snapshot: a picture of the list screens last shown, painted by the start script
 * (scripts/start-preload-plugin.ts) the moment the page opens on one of them, before the app's
 * modules have loaded, and taken down once the list's own first page has painted. On a tablet,
 * loading and starting the app takes most of a cold start.
 *
 * The picture is inert and hidden from assistive technology: nothing in it can be used, and
 * the live screen replaces it within a moment. It is kept only while it is true: retaken each
 * time a list's page has painted and settled, dropped when the rows of any list change (a
 * write to a listed table, from this window, another tab or the service worker, heard while
 * the app runs: window-sync.ts), and dropped at sign-in and sign-out (session.ts). A Background Sync
 * with no window open to hear it leaves a cookie (src/sw.ts): the start script then paints
 * nothing, and window-sync.ts drops the snapshots with the cookie.
 */
import { forgetStartSnapshots } from './session';
import { START_SNAPSHOT_PREFIX as PREFIX, START_SNAPSHOT_ID } from './start-route';

/** Snapshots kept: the list last shown and the few before it (a page of it, a search). */
const KEPT = 3;
/** A page shown this long without another is taken: typing and paging take none. */
const SETTLED_MS = 800;

const here = () => location.pathname + location.search;

/** The addresses kept, newest first. */
function keptAddresses(): string[] {
  try {
    const kept = JSON.parse(localStorage.getItem(PREFIX) ?? '[]');
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/** Where `el` starts in the window with the screen scrolled to its top, as a start shows it. */
const pageTop = (el: Element) =>
  el.getBoundingClientRect().top + (el.closest('main')?.scrollTop ?? 0) + scrollY;

/**
 * A table of the picture as a start shows it, at the page's top: the rows below the first
 * screen become one empty row of their height, and the columns keep their drawn widths in a
 * fixed layout. What shows is as drawn, the footer where it was, while the picture's frame
 * styles, lays out and paints only the rows in view.
 */
function firstScreenRows(table: HTMLTableElement, originalOf: Map<Element, Element>): void {
  const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
  const firstBelow = rows.findIndex((row) => pageTop(originalOf.get(row)!) >= innerHeight);
  if (firstBelow < 0) return;
  const below = rows.slice(firstBelow);
  const height =
    originalOf.get(below.at(-1)!)!.getBoundingClientRect().bottom -
    originalOf.get(below[0])!.getBoundingClientRect().top;
  const spacer = document.createElement('tr');
  spacer.style.cssText = `height:${height}px;margin:0;border:0;padding:0`;
  spacer.insertCell().colSpan = Math.max(1, ...rows.map((row) => row.cells.length));
  below[0].before(spacer);
  for (const row of below) row.remove();
  const heads = table.tHead?.rows[0]?.cells;
  if (!heads?.length) return;
  for (const head of heads) head.style.width = `${originalOf.get(head)!.getBoundingClientRect().width}px`;
  table.style.tableLayout = 'fixed';
}

/**
 * The app's screen as a picture: what it draws at this width (no columns behind More, no
 * closed menu, no rows below the first screen: a start builds and styles only what shows), no
 * ids (the live screen has them), no blob images (gone at reload), nothing passing, and a
 * sync status that says nothing (the start may be offline). Tagged with the width, where it
 * is true.
 */
function picture(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  const drawn = root.querySelectorAll('*');
  const originalOf = new Map<Element, Element>();
  copy.querySelectorAll('*').forEach((el, i) => {
    originalOf.set(el, drawn[i]);
  });
  for (const [el, original] of originalOf) if (getComputedStyle(original).display === 'none') el.remove();
  for (const table of copy.querySelectorAll('table')) firstScreenRows(table, originalOf);
  for (const status of copy.querySelectorAll('.sync')) {
    status.className = 'sync';
    status.removeAttribute('title');
    status.removeAttribute('aria-label');
    for (const text of status.querySelectorAll('.sync-text')) text.textContent = '';
  }
  for (const el of copy.querySelectorAll('[id]')) el.removeAttribute('id');
  for (const img of copy.querySelectorAll('img[src^="blob:"]')) img.removeAttribute('src');
  for (const passing of copy.querySelectorAll('dialog, [role="dialog"], [role="alert"], [role="status"]'))
    passing.remove();
  return `${innerWidth} ${copy.innerHTML}`;
}

function take(at: string): void {
  const root = document.getElementById('root');
  // Taken only where it was asked for, on a list that shows its page.
  if (here() !== at || !root?.querySelector('.list-foot')) return;
  const addresses = [at, ...keptAddresses().filter((a) => a !== at)];
  try {
    for (const gone of addresses.slice(KEPT)) localStorage.removeItem(PREFIX + gone);
    localStorage.setItem(PREFIX + at, picture(root));
    localStorage.setItem(PREFIX, JSON.stringify(addresses.slice(0, KEPT)));
  } catch {
    // Storage full: the start simply waits for the app.
    forgetStartSnapshots();
  }
}

let pending: ReturnType<typeof setTimeout> | undefined;

/** A list's page has painted: its picture is taken once the screen has settled. */
export function rememberStartScreen(): void {
  clearTimeout(pending);
  const at = here();
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 0));
  pending = setTimeout(() => idle(() => take(at), { timeout: 1000 }), SETTLED_MS);
}

/** Takes down the picture the start script painted, if any: the live screen has painted. */
export function dismissStartSnapshot(): void {
  document.getElementById(START_SNAPSHOT_ID)?.remove();
}
