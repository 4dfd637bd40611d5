/**
 * The storage a test server uses: the local folder, or, when TEST_STORAGE=s3 (the 's3' test
 * project), a fresh bucket on an S3 emulator started for it (tests/helpers/s3.ts). Tests read
 * stored files through the storage, so the same assertions hold in both modes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type FileStorage, openStorage, type S3Settings } from '../../server/storage';
import { startTestS3, type TestS3 } from './s3';

export const onS3 = () => process.env.TEST_STORAGE === 's3';

export interface TestStorageSettings {
  /** Set in S3 mode: the server's S3 settings. */
  s3?: S3Settings;
  /** Stops the emulator (S3 mode); nothing to do for a local folder. */
  stop(): Promise<void>;
}

/** The settings for a new test server: a fresh bucket on its own emulator in S3 mode. */
export async function testStorageSettings(): Promise<TestStorageSettings> {
  if (!onS3()) return { stop: async () => {} };
  const s3: TestS3 = await startTestS3();
  const bucket = `test-${randomBytes(4).toString('hex')}`;
  await s3.createBucket(bucket);
  return { s3: s3.settings(bucket), stop: () => s3.stop() };
}

/** A storage for a test that builds its app itself: in `dir`, or in a fresh bucket in S3 mode. */
export async function openTestStorage(dir: string): Promise<{ storage: FileStorage; stop(): Promise<void> }> {
  const settings = await testStorageSettings();
  const storage = await openStorage(
    settings.s3 ? { s3: settings.s3 } : { uploadsDir: join(dir, 'uploads'), tusDir: join(dir, 'tus') },
  );
  return { storage, stop: settings.stop };
}
