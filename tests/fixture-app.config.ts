/**
 * The app built with the test-only Fixture Widget (tests/helpers/fixture-entities.ts: a name
 * unique across fixture widgets) beside the real ones, into dist-fixtures/, so that a browser test
 * can use the generic screens of an entity with a `unique` field, as a newcomer's would be
 * (tests/browser/unique-field.test.ts builds it). The one change to the app's own build: the
 * entity list (src/contract/entities/index.ts) gets the Fixture Widget at its end, in the app and in the
 * catalogue the build computes from the descriptions, and in the workers.
 */
import { resolve } from 'node:path';
import { mergeConfig, type Plugin, type PluginOption } from 'vite';
import { entityCatalogue } from '../scripts/entity-catalogue-plugin';
import appConfig from '../vite.config';

const ROOT = resolve(import.meta.dirname, '..');
export const FIXTURE_DIST = resolve(ROOT, 'dist-fixtures');

function withFixtureWidget(): Plugin {
  const fixtures = resolve(ROOT, 'tests/helpers/fixture-entities.ts');
  return {
    name: 'fixture-entities',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/contract/entities/index.ts')) return undefined;
      const listed = code.replace(/\n\];/, '\n  fixtureWidgetV1,\n];');
      if (listed === code) throw new Error('fixture-app: the entity list was not found');
      return `import { fixtureWidgetV1 } from ${JSON.stringify(fixtures)};\n${listed}`;
    },
  };
}

const named = (p: PluginOption): string | undefined =>
  p && typeof p === 'object' && 'name' in p ? p.name : undefined;

export default mergeConfig(
  {
    ...appConfig,
    // The app's catalogue plugin is replaced by one that sees the Fixture Widget too.
    plugins: (appConfig.plugins ?? []).filter((p) => named(p) !== 'entity-catalogue'),
  },
  {
    root: ROOT,
    plugins: [withFixtureWidget(), entityCatalogue({ plugins: [withFixtureWidget()] })],
    // The workers (list, CSV, sync) are bundled apart, with their own plugins: they open the same
    // store and pull the same lists, so they see the Fixture Widget too.
    worker: { plugins: () => [withFixtureWidget()] },
    build: { outDir: FIXTURE_DIST, emptyOutDir: true },
  },
);
