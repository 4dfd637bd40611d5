/**
 * Whether the server's live stream works now (app/live-pokes.ts), kept on the page's root as
 * `data-live`: the top bar reads it on the first load without loading the stream's code,
 * which comes later with the window's sync.
 */
export const LIVE_CHANGE_EVENT = 'live-change';

export const isLive = (): boolean => document.documentElement.dataset.live === 'true';

export function setLive(live: boolean): void {
  if (isLive() === live) return;
  if (live) document.documentElement.dataset.live = 'true';
  else delete document.documentElement.dataset.live;
  window.dispatchEvent(new Event(LIVE_CHANGE_EVENT));
}
