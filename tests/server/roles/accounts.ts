/** Administrators of each role for the role suites, made through the Owner's endpoints. */
import { ADMINS_PATHS } from '../../../src/contract/accounts/admins-api';
import type { Role } from '../../../src/contract/accounts/roles';
import { type api, signIn } from '../../helpers/server';

export const PASSWORD = 'a long enough password';

/** Adds an administrator as `owner` and returns their id. */
export async function addAdmin(owner: ReturnType<typeof api>, username: string, role: Role): Promise<number> {
  const reply = await owner.post(ADMINS_PATHS.add, { username, password: PASSWORD, role });
  if (reply.status !== 200) throw new Error(`Adding ${username} failed: ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

/** Adds an administrator of `role` and signs them in: their cookie. */
export async function signedInAs(
  apiRoot: string,
  owner: ReturnType<typeof api>,
  username: string,
  role: Role,
): Promise<string> {
  await addAdmin(owner, username, role);
  return signIn(apiRoot, username, PASSWORD);
}
