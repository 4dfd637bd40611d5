import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The outbox benchmark's page (bench/bench.html + bench/bench-page.ts), built apart from the
 * app into dist-bench/ so that it runs the app's real local store, mutate, API client and
 * replay in Chromium. bench/drain.mjs serves it from the reference server (STATIC_DIR), so the
 * page and the API share an origin and the session cookie works. No service worker, no PWA:
 * only the window's code path is measured.
 */
export default defineConfig({
  root: 'bench',
  publicDir: false,
  // Same API root as the app's default build: the server's /api on the page's own origin.
  define: { 'import.meta.env.VITE_API_ROOT': JSON.stringify('/api') },
  build: {
    outDir: '../dist-bench',
    emptyOutDir: true,
    sourcemap: false,
    // Readable names in a CPU profile (BENCH_CPU_PROFILE); minifying does not change the speed.
    minify: false,
    target: 'es2022',
    rollupOptions: { input: resolve(import.meta.dirname, 'bench/bench.html') },
  },
});
