/** Settings of the window: brand in page titles and the logo (design brief §4), the API root. */
export { API_ROOT } from '../sync/sync-settings';

export const BRAND: string = import.meta.env.VITE_BRAND || 'Textbook Admin';
export const LOGO_URL: string = import.meta.env.VITE_LOGO_URL || '/logo.svg';

export function pageTitle(title: string): string {
  return `${title} | ${BRAND}`;
}
