/** How many changes wait on this device, in any state (for Logout's offer to save them). */
import { db } from '../window-context';

export const countUnsent = (): Promise<number> => db.outbox.count();
