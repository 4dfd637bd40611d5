/** Settings of the window: brand in page titles and the logo (design brief §4), the API root. */
export { API_ROOT } from '../sync/sync-settings';

export const BRAND: string = import.meta.env.VITE_BRAND || 'Textbook Admin';
/**
 * A raster logo by default: it is decoded off the main thread, while an SVG image builds a
 * document of its own on it, ahead of the start picture's first paint. logo.svg is the tab's icon.
 */
export const LOGO_URL: string = import.meta.env.VITE_LOGO_URL || '/logo.png';

export function pageTitle(title: string): string {
  return `${title} | ${BRAND}`;
}
