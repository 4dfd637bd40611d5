/** Types of seeded-random.mjs (mulberry32), for the TypeScript that shares it (the fault proxy). */
export function seededRandom(seed: number): () => number;
