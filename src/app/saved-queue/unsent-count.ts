/** How many changes wait on this device, in any state (Logout's offer, issue 20). */
import { db } from '../window-context';

export const countUnsent = (): Promise<number> => db.outbox.count();
