/**
 * The build's chunk graph as the start plugins read it (compile-hints-plugin.ts marks the
 * chunks a start runs; start-preload-plugin.ts preloads those a start on an entity's screen
 * adds to the first load's): the entry, the list screens' chunk, and what each imports.
 */

/** What the plugins read of a Rollup/Rolldown output file. */
export interface ChunkLike {
  type: 'chunk' | 'asset';
  isEntry?: boolean;
  facadeModuleId?: string | null;
  imports?: string[];
  code?: string;
  source?: string | Uint8Array;
}

export type Bundle = Record<string, ChunkLike>;

/** The files of a chunk's static graph (the chunk and what it imports, transitively). */
export function staticGraph(bundle: Bundle, file: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[file];
  if (chunk?.type !== 'chunk' || into.has(file)) return into;
  into.add(file);
  for (const dep of chunk.imports ?? []) staticGraph(bundle, dep, into);
  return into;
}

/** The entry chunk's file, and the file of the chunk whose module is `startChunk`. */
export function startFiles(bundle: Bundle, startChunk: string): { entry?: string; start?: string } {
  const chunks = Object.entries(bundle).filter(([, c]) => c.type === 'chunk');
  return {
    entry: chunks.find(([, c]) => c.isEntry)?.[0],
    start: chunks.find(([, c]) => c.facadeModuleId?.endsWith(startChunk))?.[0],
  };
}
