/** Demo content pages: About Us and Terms, so their editors open on something. */
import type { Query } from '../db';

const ABOUT_US =
  '<h2>About us</h2><p>We publish <strong>digital textbooks</strong> for Classes 1 to 12, with ' +
  'resources, question banks and book pages for every chapter.</p>';

const TERMS =
  '<h2>Terms and Conditions</h2><ol><li><p>Accounts are for the school, teacher or student ' +
  'they were made for.</p></li><li><p>Books may be used for teaching and learning only.</p></li></ol>';

export async function seedContent(q: Query): Promise<void> {
  await q('INSERT INTO about_us (content) VALUES ($1)', [ABOUT_US]);
  await q('INSERT INTO terms (content) VALUES ($1)', [TERMS]);
}
