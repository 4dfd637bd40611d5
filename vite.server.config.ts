import { defineConfig } from 'vite';

/**
 * The reference server as one ESM file, dist-server/index.js, run by `node dist-server/index.js`,
 * and the scale seed, dist-server/seed-scale.js (`npm run seed:scale`; code the two share goes
 * into a chunk beside them).
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
      input: { index: 'server/index.ts', 'seed-scale': 'server/seed-scale-cli.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
  ssr: { target: 'node' },
});
