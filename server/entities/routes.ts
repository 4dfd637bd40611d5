/** Mounts the five legacy endpoints of every described entity under the API prefix. */
import type { Hono } from 'hono';
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
    const at = (path: string) => `${apiPrefix}/${path}`;
    app.get(at(entity.api.list), listHandler(entity, db, options));
    app.get(at(entity.api.get), getHandler(entity));
    app.post(at(entity.api.add), parsedBody, write, addHandler(entity, options));
    app.post(at(entity.api.update), parsedBody, write, updateHandler(entity));
    app.post(at(entity.api.remove), parsedBody, write, deleteHandler(entity));
  }
}
