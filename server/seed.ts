/** Demo data for `npm start` on a fresh machine (design brief §1). */
import type { Query } from './db';

/** Classes 1 to 12 in their natural order. */
export async function seedDemo(q: Query): Promise<void> {
  await q(
    `INSERT INTO classes (class_name, sort_order) SELECT 'Class ' || n, n FROM generate_series(1, 12) AS n`,
  );
}
