/** Server processes and haproxy on this machine (scripts/cluster-lib.mjs). */
import type { ChildProcess } from 'node:child_process';

export const SERVER_ENTRY: string;
export const HAPROXY: string;
export function freePort(): Promise<number>;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  port: number;
  pid: number;
  child: ChildProcess;
  exited: Promise<Exit>;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export function startProcess(options: {
  port: number;
  env: Record<string, string | undefined>;
  onLine?: (line: string) => void;
}): Promise<ServerProcess>;

export interface Haproxy {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export function startHaproxy(options: {
  port: number;
  servers: number[];
  inter?: string;
  fastinter?: string;
}): Promise<Haproxy>;

export function waitFor200(url: string, timeoutMs?: number): Promise<void>;
