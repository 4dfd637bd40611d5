/**
 * Mounts, for every described entity, the endpoints of the shared endpoint table: the five
 * legacy ones, its lookups (cascade helpers) and its field actions. The table gives the
 * paths; the description gives the handlers what they need (params, values, notices).
 */
import type { Hono } from 'hono';
import { entityEndpoints } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database } from '../db';
import { parsedBody } from '../http/body';
import type { AppEnv } from '../http/env';
import { writeTransaction } from '../http/write';
import { uploadJournal } from '../uploads/journal';
import { actionHandler } from './action';
import { getHandler } from './get';
import { entityGraph } from './graph';
import { listHandler } from './list';
import { lookupHandler } from './lookup';
import { deleteHandler } from './remove';
import { addHandler, updateHandler, type WriteOptions } from './write';

export function registerEntityRoutes(
  app: Hono<AppEnv>,
  entities: readonly EntityDescription[],
  db: Database,
  apiPrefix: string,
  options: WriteOptions & { uploadsDir: string },
): void {
  const graph = entityGraph(entities);
  // Order matters: the journal must see the reply after the transaction has ended (journal.ts).
  const write = [parsedBody, uploadJournal(options.uploadsDir), writeTransaction(db, options)] as const;
  const at = (path: string) => `${apiPrefix}/${path}`;
  for (const entity of entities) {
    const ep = entityEndpoints(entity);
    app.get(at(ep.list.path), listHandler(entity, graph, db, options));
    app.get(at(ep.get.path), getHandler(entity, graph));
    app.post(at(ep.add.path), ...write, addHandler(entity, graph, options));
    app.post(at(ep.update.path), ...write, updateHandler(entity, graph, ep.update, options));
    app.post(at(ep.remove.path), ...write, deleteHandler(entity, graph));
    // ep.lookups is entity.lookups in the same order.
    (entity.lookups ?? []).forEach((lookup, i) => {
      app.get(at(ep.lookups[i].path), lookupHandler(entity, graph, lookup));
    });
    for (const [name, action] of Object.entries(entity.actions ?? {}))
      app.post(at(ep.actions[name].path), ...write, actionHandler(entity, action));
  }
}
