import { defineConfig } from 'vite';

/**
 * The reference server as ESM, dist-server/index.js, run by `node dist-server/index.js`, and the
 * backup tool beside it, dist-server/data-tool.js (npm run backup / restore); what both use is
 * a shared chunk.
 * SSR mode keeps every package of node_modules external: PGlite must load its wasm and data
 * files from beside its own module, and pg and hono run fine unbundled. Our code, the shared
 * contract and the migrations (imported with ?raw) are bundled, so dist-server needs no other
 * files of the repository.
 */
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      input: { index: 'server/index.ts', 'data-tool': 'server/data-tool.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
  ssr: { target: 'node' },
});
