/**
 * Our server's refusal of a key its administrator already used for another request
 * (server/api/idempotency.ts). A change carried to another device in a file that
 * meets it was sent by the other copy first (src/db/saved-queue/gather-and-load.ts, src/sync/round.ts).
 */
export const KEY_REUSED = 'Idempotency-Key reused for a different request';
