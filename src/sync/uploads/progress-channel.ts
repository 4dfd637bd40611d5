/**
 * Progress of the large files replay sends ahead of their records, for a screen to show
 * (percent and size, on the form and the outbox screen). Replay runs in a tab's sync worker or
 * in the service worker (Background Sync), so every event is also posted on a BroadcastChannel:
 * the context that replays hears its own events directly, the screens of every tab through the
 * channel. A context without BroadcastChannel hears only its own.
 */

export interface UploadProgress {
  /** The outbox entry (its seq) whose file this is. */
  seq: number;
  /** The entry's field name. */
  field: string;
  /** The file's name on this device, when it has one. */
  name?: string;
  /** Bytes the server has confirmed or that are on their way. */
  sent: number;
  /** Bytes the server has confirmed: where the next try goes on from. */
  confirmed: number;
  total: number;
}

export type UploadProgressListener = (progress: UploadProgress) => void;

const CHANNEL = 'upload-progress';
const listeners = new Set<UploadProgressListener>();
let channel: BroadcastChannel | null | undefined;

/** The channel, opened on first use; in Node (tests) it must not keep the process alive. */
function shared(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  (channel as unknown as { unref?: () => void } | null)?.unref?.();
  if (channel) channel.onmessage = (event: MessageEvent<UploadProgress>) => deliver(event.data);
  return channel;
}

function deliver(progress: UploadProgress): void {
  for (const listener of listeners) {
    // A listener's failure is the screen's problem, never the upload's.
    try {
      listener(progress);
    } catch (error) {
      console.error('Upload progress listener failed:', error);
    }
  }
}

/** Calls `listener` on every progress event, here or relayed, until the returned function is called. */
export function subscribeUploadProgress(listener: UploadProgressListener): () => void {
  shared();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function publishUploadProgress(progress: UploadProgress): void {
  deliver(progress);
  // The channel does not deliver to the context that posts, so nothing is heard twice.
  shared()?.postMessage(progress);
}
