/**
 * Whether the server has the endpoints of an entity's extension operations (`api.extensions`:
 * question edit). Asked of the get endpoint without an id: our server answers a refusal in
 * JSON (400, the id is missing), which shows the endpoint is there; the PHP API, or ours in
 * legacy mode, answers 404 (or 405) for a path it does not have. Anything else (no network,
 * a 5xx, signed out) settles nothing.
 */
import { entityEndpoints } from '../../contract/endpoints';
import type { EntityDescription } from '../../contract/entity';
import type { ApiClient } from './api-client';

export async function hasExtension(api: ApiClient, entity: EntityDescription): Promise<boolean | null> {
  const get = entityEndpoints(entity).get;
  if (!get) return false;
  const outcome = await api.request(get.path, { method: 'GET', query: { ...get.query } });
  if (outcome.kind === 'unreachable') return null;
  if (outcome.status === 404 || outcome.status === 405) return false;
  if (outcome.kind === 'not-json' || outcome.status === 401 || outcome.status >= 500) return null;
  return true;
}
