/**
 * Where focus goes when the screen changes: to the new screen's heading, so a keyboard or
 * screen-reader user starts there instead of at the top of the page. The first screen of a
 * page load keeps focus at the top, where the skip link is.
 */

let firstPath: string | null = null;

/** Focuses the main heading (or the main region) and shows the screen from its top. */
export function focusMainHeading(): void {
  const main = document.getElementById('main');
  const target = main?.querySelector<HTMLElement>('h1') ?? main;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  main?.scrollTo?.({ top: 0 });
  target.focus({ preventScroll: true });
}

/** Called by each screen as it appears (usePageTitle). */
export function screenShown(): void {
  const path = window.location.pathname;
  if (firstPath === null) firstPath = path;
  if (firstPath === path) return;
  firstPath = ''; // from now on every screen is reached by navigating
  focusMainHeading();
}
