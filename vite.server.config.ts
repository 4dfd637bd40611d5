import { defineConfig } from 'vite';

/**
 * The reference server as one ESM file, dist-server/index.js, run by `node dist-server/index.js`.
 * SSR mode keeps every package of node_modules external: PGlite must load its wasm and data
 * files from beside its own module, and pg and hono run fine unbundled. Our code, the shared
 * contract and the migrations (imported with ?raw) are bundled, so dist-server needs no other
 * files of the repository.
 */
export default defineConfig({
  build: {
    ssr: 'server/index.ts',
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'index.js' } },
  },
  ssr: { target: 'node' },
});
