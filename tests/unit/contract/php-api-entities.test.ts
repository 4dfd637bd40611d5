/**
 * Which entities the PHP API has (api-contract.md §3) and which are ours alone. An entity the
 * PHP server lacks must be marked `extension: true`: its reads then answer 404 on a PHP server
 * (or ours in legacy mode), and only an extension's 404 is taken as "this server has none"
 * (src/sync/pull-fetch.ts); left unmarked, every pull from such a server ends refused at it.
 * A newcomer's entity fails here until it says which it is.
 */
import { describe, expect, it } from 'vitest';
import { entities } from '../../../src/contract/entities';
import { descriptionFileOf, placeOf } from '../../helpers/source-lines';

const THIS_FILE = 'tests/unit/contract/php-api-entities.test.ts';

/** The entities whose endpoints the PHP API has, by name, with their section of api-contract.md. */
const PHP_API_ENTITIES: Readonly<Record<string, string>> = {
  class: '§3.2',
  subject: '§3.3',
  series: '§3.4',
  book: '§3.5',
  section: '§3.6',
  unit: '§3.7',
  chapter: '§3.8',
  school: '§3.9',
  teacher: '§3.10',
  student: '§3.11',
  bookPage: '§3.13',
  resourceType: '§3.14',
  libraryResource: '§3.15',
  question: '§3.16',
  aboutUs: '§3.17',
};

describe('entities of the PHP API and our extensions', () => {
  it('every entity the PHP API lacks is marked extension, and none it has', () => {
    for (const e of entities) {
      const inPhpApi = e.name in PHP_API_ENTITIES;
      const advice = inPhpApi
        ? `Entity '${e.name}' is one of the PHP API's (api-contract.md ${PHP_API_ENTITIES[e.name]}) ` +
          `but is marked extension: remove \`extension: true\` at ${descriptionFileOf(e.name)}, or ` +
          `remove \`${e.name}: '…',\` from PHP_API_ENTITIES at ${placeOf(THIS_FILE, `  ${e.name}: '§`)}.`
        : `Entity '${e.name}' is not one of the PHP API's (PHP_API_ENTITIES, ${THIS_FILE}): a PHP ` +
          `server answers 404 to ${e.api.list ?? e.api.get ?? 'its reads'}, and unless the entity is an ` +
          `extension every pull from it ends refused. Add \`extension: true,\` to its description ` +
          `(${descriptionFileOf(e.name)}); or, if the PHP server has its endpoints, add ` +
          `\`${e.name}: '§…',\` to PHP_API_ENTITIES in ${THIS_FILE}.`;
      expect(e.extension === true, advice).toBe(!inPhpApi);
    }
  });
});
