/** Mounts the five legacy endpoints of every described entity, from the shared endpoint table. */
import type { Hono } from 'hono';
import { entityEndpoints } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database } from '../db';
import { parsedBody } from '../http/body';
import type { AppEnv } from '../http/env';
import { writeTransaction } from '../http/write';
import { getHandler } from './get';
import { listHandler } from './list';
import { addHandler, deleteHandler, updateHandler } from './write';

export function registerEntityRoutes(
  app: Hono<AppEnv>,
  entities: readonly EntityDescription[],
  db: Database,
  apiPrefix: string,
  options: { legacy: boolean },
): void {
  const write = writeTransaction(db, options);
  for (const entity of entities) {
    const ep = entityEndpoints(entity);
    const at = (path: string) => `${apiPrefix}/${path}`;
    app.get(at(ep.list.path), listHandler(entity, db, options));
    app.get(at(ep.get.path), getHandler(entity));
    app.post(at(ep.add.path), parsedBody, write, addHandler(entity, options));
    app.post(at(ep.update.path), parsedBody, write, updateHandler(entity, ep.update));
    app.post(at(ep.remove.path), parsedBody, write, deleteHandler(entity));
  }
}
