/**
 * Progress events of large files on their way, from this window's replays and, relayed, the
 * service worker's (src/sync/uploads/progress-channel.ts). Kept apart from upload-watch.ts:
 * the top bar listens on every screen's first load, and needs nothing else.
 */
export {
  subscribeUploadProgress as watchUploadProgress,
  type UploadProgress,
} from '../../sync/uploads/progress-channel';
