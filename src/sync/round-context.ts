/** What a round of replay works with (round.ts and the steps it calls). */
import type { LocalDb } from '../db/database';
import type { GroupCommit } from '../db/outbox/group-commit';
import type { ApiClient } from './api/api-client';
import type { IdResolver } from './entry-request';
import type { Transport } from './transport';

export interface Round {
  db: LocalDb;
  api: ApiClient;
  transport: Transport;
  /** The round's writes, applied together when it calls flush(). */
  commits: GroupCommit;
  /** The replayer's id map. */
  resolve: IdResolver;
}
