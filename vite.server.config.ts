import { defineConfig } from 'vite';

/**
 * The reference server as ESM, dist-server/index.js, run by `node dist-server/index.js`, and the
 * tools beside it: dist-server/data-tool.js (npm run backup / restore) and dist-server/seed-scale.js
 * (npm run seed:scale); what they share is a shared chunk.
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
      input: {
        index: 'server/commands/serve.ts',
        'data-tool': 'server/commands/data-tool.ts',
        'seed-scale': 'server/commands/seed-scale.ts',
      },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
  ssr: { target: 'node' },
});
