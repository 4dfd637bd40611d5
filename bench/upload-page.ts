/**
 * The upload benchmark's page: the app's real API client, sign-in and resumable upload
 * (tus-js-client over fetch, as in the window and the service worker), driven from Node by
 * bench/upload.mjs through `window.uploadBench`. The file lives in the page's memory; the
 * outbox is not involved (no record takes a file this large yet).
 */
import type { StoredUpload } from '../src/db/outbox/outbox-entry';
import { createApi } from '../src/sync/api/api-client';
import { signIn } from '../src/sync/api/sign-in-requests';
import { API_ROOT } from '../src/sync/sync-settings';
import { type ResumableOutcome, uploadResumable } from '../src/sync/uploads/resumable-upload';

const api = createApi({ root: API_ROOT });
let file: Blob | null = null;

const hex = (digest: ArrayBuffer) =>
  Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');

const uploadBench = {
  async signIn(username: string, password: string): Promise<boolean> {
    return (await signIn(api, username, password)).ok;
  },

  /** A random file of `size` bytes with a PNG's first bytes; returns its SHA-256. */
  async makeFile(size: number): Promise<string> {
    const bytes = new Uint8Array(size);
    for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    file = new Blob([bytes], { type: 'image/png' });
    return hex(await crypto.subtle.digest('SHA-256', bytes));
  },

  /** The file through the resumable upload, with a fresh memory (a new upload). */
  async resumable(): Promise<{ outcome: ResumableOutcome; ms: number; progressEvents: number }> {
    let kept: StoredUpload | undefined;
    const memory = {
      load: async () => kept,
      save: async (upload: StoredUpload) => {
        kept = upload;
      },
    };
    let progressEvents = 0;
    const started = performance.now();
    const outcome = await uploadResumable(api, file!, {
      memory,
      onProgress: () => {
        progressEvents += 1;
      },
    });
    return { outcome, ms: performance.now() - started, progressEvents };
  },

  /** The file as one multipart request to `url` (Add Chapter's form), as the legacy client sends it. */
  async multipart(url: string, fields: Record<string, string>, credentials: RequestCredentials) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('chapterImage', file!, 'large.png');
    const started = performance.now();
    try {
      const res = await fetch(url, { method: 'POST', body: form, credentials });
      return { status: res.status, body: (await res.text()).slice(0, 200), ms: performance.now() - started };
    } catch (error) {
      return { status: 0, body: String(error), ms: performance.now() - started };
    }
  },
};

(window as unknown as { uploadBench: typeof uploadBench }).uploadBench = uploadBench;
document.title = 'upload bench ready';
