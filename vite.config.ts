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
