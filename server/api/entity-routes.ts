/**
 * The API's routes for every described entity, from the shared endpoint table: list, get,
 * add, update, delete, lookups (cascade helpers), field actions, field reads and set
 * relations, each as the endpoint the table describes (path, fixed query, method); a single
 * document's get, add and update (entity-writes/single.ts); our extension entities only outside legacy mode. The table
 * gives the paths; the description gives the handlers what they need (params, values,
 * notices). Mounting them on HTTP is server/api/mount.ts's job. Operations that are our
 * extension (`api.extensions`: question edit) are left out in legacy mode, as the PHP API has
 * none of them; an add that takes several files (book pages) has its own handler.
 */
import { entityEndpoints } from '../../src/contract/endpoints';
import { type EntityDescription, isExtension } from '../../src/contract/entity';
import { RouteTable } from '../../src/contract/route-table';
import { severalField } from '../../src/contract/several-files';
import type { Database } from '../db';
import { getHandler } from '../entities/get';
import { entityGraph } from '../entities/graph';
import type { ApiHandler, ApiReply, ApiRoute } from '../entities/handler';
import { listHandler } from '../entities/list';
import { lookupHandler } from '../entities/lookup';
import { readFieldHandler } from '../entities/read-field';
import { actionHandler } from '../entity-writes/action';
import { addSeveralHandler } from '../entity-writes/add-several';
import { readSetHandler, writeSetHandler } from '../entity-writes/relation';
import { deleteHandler } from '../entity-writes/remove';
import { singleGetHandler, singleWriteHandler } from '../entity-writes/single';
import { addHandler, updateHandler, type WriteOptions } from '../entity-writes/write';
import { constraintRefusal } from './constraint-refusal';

const read = (handler: ApiHandler): ApiRoute => ({ writes: false, handler });
const write = (entity: EntityDescription, handler: ApiHandler): ApiRoute => ({
  writes: true,
  handler,
  entity,
});

/**
 * A refusal that also carries its message under the entity's `errorField` (addlibrary.php's
 * `error`), the database's refusals too: a constraint error is made a refusal here, where the
 * entity is known, instead of in the write pipeline, which would answer without the field.
 */
function withErrorField(entity: EntityDescription, handler: ApiHandler): ApiHandler {
  const field = entity.api.errorField;
  if (!field) return handler;
  return async (request) => {
    let reply: ApiReply;
    try {
      reply = await handler(request);
    } catch (err) {
      const refused = constraintRefusal(err);
      if (!refused) throw err;
      reply = refused;
    }
    if (reply.body.success !== false) return reply;
    return { ...reply, body: { ...reply.body, [field]: reply.body.message } };
  };
}

export function entityRoutes(
  entities: readonly EntityDescription[],
  db: Database,
  options: WriteOptions,
): RouteTable<ApiRoute> {
  const graph = entityGraph(entities);
  const table = new RouteTable<ApiRoute>();
  for (const entity of entities) {
    // Our extensions are not part of the plain PHP API that legacy mode stands for.
    if (entity.extension && options.legacy) continue;
    const ep = entityEndpoints(entity);
    if (entity.single) {
      if (ep.get) table.add(ep.get, read(singleGetHandler(entity)));
      if (ep.add) table.add(ep.add, write(entity, singleWriteHandler(entity, 'add')));
      if (ep.update) table.add(ep.update, write(entity, singleWriteHandler(entity, 'update')));
      continue;
    }
    const mounted = (op: 'get' | 'update') => !(options.legacy && isExtension(entity, op));
    if (ep.list) table.add(ep.list, read(listHandler(entity, graph, db, options)));
    if (ep.get && mounted('get')) table.add(ep.get, read(getHandler(entity, graph)));
    for (const also of ep.alsoGet) table.add(also, read(getHandler(entity, graph)));
    if (ep.add) {
      const add = severalField(entity)
        ? addSeveralHandler(entity, graph, options)
        : addHandler(entity, graph, options);
      table.add(ep.add, write(entity, withErrorField(entity, add)));
    }
    if (ep.update && mounted('update'))
      table.add(
        ep.update,
        write(entity, withErrorField(entity, updateHandler(entity, graph, ep.update, options))),
      );
    if (ep.remove) table.add(ep.remove, write(entity, deleteHandler(entity, graph)));
    // ep.lookups is entity.lookups in the same order.
    (entity.lookups ?? []).forEach((lookup, i) => {
      table.add(ep.lookups[i], read(lookupHandler(entity, graph, lookup)));
    });
    for (const [name, action] of Object.entries(entity.actions ?? {}))
      table.add(ep.actions[name], write(entity, actionHandler(entity, action)));
    for (const [name, fieldRead] of Object.entries(entity.api.reads ?? {}))
      table.add(ep.reads[name], read(readFieldHandler(entity, fieldRead)));
    for (const [name, rel] of Object.entries(entity.relations ?? {})) {
      table.add(ep.relations[name].read, read(readSetHandler(entity, graph, name, rel)));
      table.add(ep.relations[name].write, write(entity, writeSetHandler(entity, graph, name, rel)));
    }
  }
  return table;
}
