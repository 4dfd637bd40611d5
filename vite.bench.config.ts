import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The benchmarks' pages, built apart from the app into dist-bench/ so that they run the app's
 * real modules in Chromium: the outbox drain's (bench/bench.html + bench/bench-page.ts: local
 * store, mutate, API client, replay) and the large upload's (bench/upload.html +
 * bench/upload-page.ts: API client, resumable upload), the first sync's (bench/first-sync.html +
 * bench/first-sync-page.ts: local store, API client, pull) and the list benchmark's seeding page
 * (bench/lists.html + bench/lists-page.ts: the app's pull-apply path) and the import and export
 * benchmark's (bench/csv.html + bench/csv-page.ts: the app's CSV worker) and the import delivery's
 * (bench/import-delivery.html + bench/import-delivery-page.ts: CSV worker, outbox, replay). bench/drain.mjs and bench/upload.mjs
 * serve them from the reference server (STATIC_DIR), so the page and the API share an origin
 * and the session cookie works. No PWA: only the window's code path of ours is measured; the
 * one service worker, `/workbox-sw.js` (bench/workbox-sw.ts), is the drain's Workbox peer.
 */
export default defineConfig({
  root: 'bench',
  publicDir: false,
  // The first sync's worker (bench/first-sync-worker.ts) is a module worker, as the app's are.
  worker: { format: 'es' },
  // Same API root as the app's default build: the server's /api on the page's own origin.
  define: { 'import.meta.env.VITE_API_ROOT': JSON.stringify('/api') },
  build: {
    outDir: '../dist-bench',
    emptyOutDir: true,
    sourcemap: false,
    // Readable names in a CPU profile (BENCH_CPU_PROFILE); minifying does not change the speed.
    minify: false,
    target: 'es2022',
    rollupOptions: {
      input: {
        bench: resolve(import.meta.dirname, 'bench/bench.html'),
        upload: resolve(import.meta.dirname, 'bench/upload.html'),
        'first-sync': resolve(import.meta.dirname, 'bench/first-sync.html'),
        lists: resolve(import.meta.dirname, 'bench/lists.html'),
        csv: resolve(import.meta.dirname, 'bench/csv.html'),
        'import-delivery': resolve(import.meta.dirname, 'bench/import-delivery.html'),
        'workbox-sw': resolve(import.meta.dirname, 'bench/workbox-sw.ts'),
      },
      // The worker at a fixed name the page registers; the pages' scripts keep their hashes.
      output: {
        entryFileNames: (chunk) => (chunk.name === 'workbox-sw' ? '[name].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
