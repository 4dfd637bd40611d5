/**
 * Adjustments to the tus data stores, the same for both storages.
 *
 * - No deferred length: the app always knows a file's size, and the limit of bytes an
 *   administrator may hold in unfinished uploads is counted on the length declared at
 *   creation (uploads/resumable.ts), so `creation-defer-length` is neither offered nor taken.
 * - In a bucket, uploads live under `tus/` (`tus/<id>`, `tus/<id>.info`, `tus/<id>.part`)
 *   beside `uploads/` and `pending/`; @tus/s3-store names its objects after the upload id
 *   alone, so the id it sees carries the prefix and the one tus hands out does not.
 */
import type { Readable } from 'node:stream';
import { DataStore, Upload } from '@tus/utils';

const NOT_OFFERED = 'creation-defer-length';

/** The store as it is, without the deferred-length extension. */
export function withoutDeferredLength<T extends DataStore>(store: T): T {
  store.extensions = store.extensions.filter((e) => e !== NOT_OFFERED);
  return store;
}

/** `inner` seen through ids without `prefix`. */
export class PrefixedDataStore extends DataStore {
  constructor(
    private readonly inner: DataStore,
    private readonly prefix: string,
  ) {
    super();
    this.extensions = inner.extensions.filter((e) => e !== NOT_OFFERED);
  }

  private inside = (id: string) => `${this.prefix}${id}`;
  private outside = (upload: Upload) => new Upload({ ...upload, id: upload.id.slice(this.prefix.length) });

  override async create(upload: Upload): Promise<Upload> {
    return this.outside(await this.inner.create(new Upload({ ...upload, id: this.inside(upload.id) })));
  }
  override remove(id: string): Promise<void> {
    return this.inner.remove(this.inside(id));
  }
  override write(stream: Readable, id: string, offset: number): Promise<number> {
    return this.inner.write(stream, this.inside(id), offset);
  }
  override async getUpload(id: string): Promise<Upload> {
    return this.outside(await this.inner.getUpload(this.inside(id)));
  }
  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.inner.declareUploadLength(this.inside(id), length);
  }
  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }
  override getExpiration(): number {
    return this.inner.getExpiration();
  }
}
