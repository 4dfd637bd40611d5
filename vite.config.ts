import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { entityCatalogue } from './scripts/entity-catalogue-plugin';

export default defineConfig({
  plugins: [
    react(),
    entityCatalogue(),
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
  resolve: {
    alias: {
      // valibot is one module: a first-load import of it brings every valibot function the app
      // uses anywhere. The list routes' search schema (src/ui/list-search.ts) imports valibot's
      // other build, its own module, which the bundler trims to the few functions it uses.
      'valibot/first-load': fileURLToPath(
        new URL('./node_modules/valibot/dist/index.min.mjs', import.meta.url),
      ),
    },
  },
  // The list worker (src/list-worker.ts) is a module worker: it shares chunks with the app.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
