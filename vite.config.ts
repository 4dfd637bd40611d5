import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compileHints } from './scripts/compile-hints-plugin';
import { entityCatalogue } from './scripts/entity-catalogue-plugin';
import { preloadMissingOnly } from './scripts/preload-missing-plugin';
import { startPreload } from './scripts/start-preload-plugin';

export default defineConfig({
  plugins: [
    react(),
    entityCatalogue(),
    // The chunks a start runs (the first load, and an entity's list screens: a cold start onto
    // a list) are compiled while they stream, off the main thread.
    compileHints('src/routes/entity-screen.tsx'),
    // A start on an entity's screen fetches those chunks beside the entry's, not after it ran.
    startPreload('src/routes/entity-screen.tsx'),
    preloadMissingOnly(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // public/manifest.webmanifest is the manifest; index.html links it.
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  // The workers (list, CSV, sync: src/*-worker.ts) are module workers, each bundled whole.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    target: 'es2022',
    // Every browser the app supports preloads modules itself (Chromium, Safari 17, Firefox
    // 115): without the polyfill, the first load is ~0.5 KB gzip smaller (room for the compile
    // hints above); a browser without modulepreload still loads every module, only not ahead.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
