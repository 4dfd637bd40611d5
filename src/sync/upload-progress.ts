/**
 * Progress of the large files replay sends ahead of their records, for a screen to show
 * (percent and size, on the form and the outbox screen). Events stay in the context that
 * sends: a window hears its own replays; the service worker's would have to be relayed
 * (postMessage) by whoever shows them.
 */

export interface UploadProgress {
  /** The outbox entry (its seq) whose file this is. */
  seq: number;
  /** The entry's field name. */
  field: string;
  /** Bytes the server has confirmed (chunk by chunk) or that are on their way. */
  sent: number;
  total: number;
}

export type UploadProgressListener = (progress: UploadProgress) => void;

const listeners = new Set<UploadProgressListener>();

/** Calls `listener` on every progress event until the returned function is called. */
export function subscribeUploadProgress(listener: UploadProgressListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function publishUploadProgress(progress: UploadProgress): void {
  for (const listener of listeners) {
    // A listener's failure is the screen's problem, never the upload's.
    try {
      listener(progress);
    } catch (error) {
      console.error('Upload progress listener failed:', error);
    }
  }
}
