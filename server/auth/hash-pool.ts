/**
 * The threads that derive new password hashes: worker_threads, as many as the cores the
 * process may use (os.availableParallelism()), each running scrypt one at a time.
 *
 * Not libuv's threadpool (node:crypto's async scrypt): its size is fixed when the process
 * starts (UV_THREADPOOL_SIZE, 4 by default, whatever the cores), and it is shared with file
 * reads, DNS and zlib, so an import's hashes queued there would hold up every file the server
 * serves meanwhile. Here the hashes have threads of their own, exactly one per core, and
 * sign-in's verifications (a person waiting) still go straight to libuv, never behind an
 * import's queue.
 *
 * The threads start on first use and stay (a thread costs tens of milliseconds to start);
 * while none has work they do not keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface ScryptTask {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
}

/** The thread's code: scrypt, synchronously (it is the thread's only work), for each task. */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ id, task }) => {
  try {
    const { password, salt, keyLength, N, r, p, maxmem } = task;
    const key = scryptSync(password, Buffer.from(salt), keyLength, { N, r, p, maxmem });
    parentPort.postMessage({ id, key });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Pending {
  id: number;
  task: ScryptTask;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  busy: Pending | null;
}

type Reply = { id: number; key?: Uint8Array; error?: string };

/** scrypt needs 128·N·r bytes; node's default ceiling (32 MiB) would refuse N=2^17. */
export const scryptMaxmem = ({ N = 16384, r = 8 }: { N?: number; r?: number }): number =>
  256 * N * r + 1024 * 1024;

class HashPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(readonly size: number) {}

  derive(task: ScryptTask): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.idleThread();
      if (!thread) return;
      const job = this.queue.shift() as Pending;
      thread.busy = job;
      thread.worker.ref();
      thread.worker.postMessage({ id: job.id, task: { ...job.task, maxmem: scryptMaxmem(job.task) } });
    }
  }

  private idleThread(): Thread | undefined {
    const idle = this.threads.find((t) => t.busy === null);
    if (idle || this.threads.length >= this.size) return idle;
    const thread: Thread = { worker: new Worker(THREAD_SOURCE, { eval: true }), busy: null };
    thread.worker.unref();
    thread.worker.on('message', (reply: Reply) => this.settle(thread, reply));
    thread.worker.on('error', (err) => this.lose(thread, err));
    this.threads.push(thread);
    return thread;
  }

  private settle(thread: Thread, reply: Reply): void {
    const job = thread.busy;
    thread.busy = null;
    thread.worker.unref();
    if (job && job.id === reply.id) {
      if (reply.key) job.resolve(Buffer.from(reply.key));
      else job.reject(new Error(reply.error ?? 'scrypt failed'));
    }
    this.dispatch();
  }

  /** A thread that died takes its task with it: that task fails, the others go on in a new thread. */
  private lose(thread: Thread, err: Error): void {
    this.threads.splice(this.threads.indexOf(thread), 1);
    thread.busy?.reject(err);
    this.dispatch();
  }
}

let pool: HashPool | undefined;

/** The process's pool, one thread per core it may use. */
export function hashPool(): { size: number; derive(task: ScryptTask): Promise<Buffer> } {
  pool ??= new HashPool(Math.max(1, availableParallelism()));
  return pool;
}
