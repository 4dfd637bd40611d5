/**
 * A Vite plugin providing `virtual:entity-catalogue`: the entity catalogue computed from the
 * full descriptions (src/app/catalogue/catalogue-source.ts) at build time and inlined as plain data, so
 * the first load carries the routes and table definitions of every entity but none of the
 * descriptions themselves (src/contract/catalogue/entity-catalogue.ts).
 */
import { type Plugin, runnerImport } from 'vite';
import type { Catalogue } from '../src/contract/catalogue/entity-catalogue';

const ID = 'virtual:entity-catalogue';
const RESOLVED = `\0${ID}`;

/** `plugins`: applied to the descriptions too (tests/fixture-app.config.ts adds a fixture entity). */
export function entityCatalogue(options: { plugins?: Plugin[] } = {}): Plugin {
  return {
    name: 'entity-catalogue',
    resolveId: (source) => (source === ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      // A separate module runner without our config: the descriptions are plain TypeScript.
      const { module, dependencies } = await runnerImport<{ buildCatalogue(): Catalogue }>(
        '/src/app/catalogue/catalogue-source.ts',
        { configFile: false, logLevel: 'silent', plugins: options.plugins ?? [] },
      );
      for (const file of dependencies) this.addWatchFile(file);
      return `export const catalogue = ${JSON.stringify(module.buildCatalogue())};`;
    },
  };
}
