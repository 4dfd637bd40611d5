/**
 * Data at scale: N students (100,000 by default) spread over schools and teachers,
 * for the benchmarks and for anyone who wants to try the app at the size a publisher with a
 * few hundred schools has. Set-based SQL (generate_series over arrays of names and places), so
 * 100,000 students take seconds, not one round trip each.
 *
 * - Names come from lists of first and last names of several languages, some with accents
 *   (Zoë, Anaïs, Łukasz, Gonçalves), combined so that few repeat; e-mails are the names without
 *   accents. Places are real (country ISO2, state code, city name) from the same geography
 *   package the server answers the location selects with, so every form shows them.
 * - Every seeded school, teacher and student has the password SEED_PASSWORD, hashed ONCE (scrypt
 *   costs tens of ms a hash) and the same hash stored in every row.
 * - The change-tracking triggers run as for any write, so every row has a rev and a delta pull
 *   (since=0 or any earlier cursor) brings it. Only the assignments' owner-touch trigger is off
 *   while the assignments go in: it would update each owner once more per book, and the owners
 *   were inserted, with their revs, in the same transaction.
 * - Additive: it adds schools, teachers and students beside whatever is there and assigns some
 *   of the books that exist (none when there are no books).
 */
import { hashPassword } from '../auth/password';
import type { Database, Query } from '../db';

export const SEED_PASSWORD = 'scale-password';

export interface ScaleOptions {
  students: number;
  /** Default: one school per 250 students (at least one). */
  schools?: number;
  /** Default: one teacher per 25 students (at least one). */
  teachers?: number;
}

export interface ScaleResult {
  schools: number;
  teachers: number;
  students: number;
  assignments: number;
  ms: number;
}

// biome-ignore format: a list of names reads best as a block
const FIRST = [
  'Aarav', 'Ananya', 'Kabir', 'Diya', 'Vihaan', 'Ishaan', 'Saanvi', 'Aditi', 'Rohan', 'Meera',
  'Arjun', 'Priya', 'Zoë', 'José', 'Anaïs', 'Chloé', 'François', 'Hélène', 'Søren', 'Łukasz',
  'Björn', 'Inés', 'Noémie', 'Joaquín', 'Raphaël', 'Léa', 'Mateo', 'Lucía', 'Emma', 'Liam',
  'Olivia', 'Noah', 'Amara', 'Kwame', 'Yuki', 'Hiro', 'Mei', 'Wei', 'Fatima', 'Omar',
  'Layla', 'Yusuf', 'Élodie', 'Jürgen', 'Małgorzata', 'Þór', 'Niamh', 'Siobhán', 'Ngọc', 'Đức',
];
// biome-ignore format: a list of names reads best as a block
const LAST = [
  'Shah', 'Gupta', 'Das', 'Rao', 'Iyer', 'Nair', 'Patel', 'Reddy', 'Menon', 'Kulkarni',
  'Chatterjee', 'Banerjee', 'Singh', 'Kapoor', 'Müller', 'Gonçalves', 'Núñez', 'García', 'Martín', 'Dubois',
  'Lefèvre', 'Moreau', 'Schäfer', 'Østergaard', 'Wiśniewski', 'Kowalski', 'Peña', 'Fernández', 'Rossi', 'Bianchi',
  'Smith', 'Jones', 'Williams', 'Brown', 'Okafor', 'Mensah', 'Tanaka', 'Sato', 'Nguyễn', 'Trần',
  'Haddad', 'Khan', 'Ahmed', 'Costa', 'Silva', 'Pereira', 'Andersson', 'Jóhannsson', 'O’Brien', 'Murphy',
];
// biome-ignore format: a list of names reads best as a block
const SCHOOL_NAMES = [
  'Green Valley', 'Lakeside', 'Sunrise', 'St. Mary’s', 'Holy Cross', 'Little Flower', 'Greenwood',
  'Delhi Public', 'Riverside', 'Hillview', 'Notre-Dame', 'Sainte-Thérèse', 'San José', 'Montessori',
  'Bright Future', 'Kendriya', 'Oakridge', 'Silver Oak', 'Maple Leaf', 'Sacré-Cœur',
];
/** States whose cities the schools are in: [country ISO2, state code], all in the geography data. */
const STATES: readonly [string, string][] = [
  ['IN', 'MH'],
  ['IN', 'KA'],
  ['IN', 'DL'],
  ['IN', 'TN'],
  ['IN', 'WB'],
  ['IN', 'KL'],
  ['FR', 'IDF'],
  ['ES', 'MD'],
  ['DE', 'BY'],
  ['PT', '11'],
  ['BR', 'SP'],
];
const CITIES_PER_STATE = 8;

/** A name as an e-mail's local part: no accents, no apostrophes, lower case. */
export function asciiSlug(name: string): string {
  const special: Record<string, string> = {
    ł: 'l',
    Ł: 'L',
    ø: 'o',
    Ø: 'O',
    þ: 'th',
    Þ: 'Th',
    đ: 'd',
    Đ: 'D',
  };
  return name
    .replace(/[łŁøØþÞđĐ]/g, (c) => special[c])
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

interface Place {
  country: string;
  state: string;
  city: string;
}

/** Real places: a few cities, evenly spread, of each state in STATES. */
async function places(): Promise<Place[]> {
  const { City } = await import('country-state-city');
  return STATES.flatMap(([country, state]) => {
    const cities = City.getCitiesOfState(country, state);
    const step = Math.max(1, Math.floor(cities.length / CITIES_PER_STATE));
    return cities
      .filter((_, i) => i % step === 0)
      .slice(0, CITIES_PER_STATE)
      .map((c) => ({ country, state, city: c.name }));
  });
}

/** Inserts the rows in one transaction, then refreshes the planner's statistics. */
export async function seedScale(db: Database, options: ScaleOptions): Promise<ScaleResult> {
  const started = Date.now();
  const students = Math.max(0, Math.floor(options.students));
  const schools = options.schools ?? Math.max(1, Math.ceil(students / 250));
  const teachers = options.teachers ?? Math.max(1, Math.ceil(students / 25));
  const password = await hashPassword(SEED_PASSWORD);
  const where = await places();
  const first = FIRST;
  const last = LAST;
  const names = [first, first.map(asciiSlug), last, last.map(asciiSlug)];

  const assignments = await db.tx(async (q) => {
    const schoolIds = await insertSchools(q, schools, password, where);
    await insertPeople(q, TEACHERS.target, TEACHERS.values, teachers, password, schoolIds, names);
    await insertPeople(q, STUDENTS.target, STUDENTS.values, students, password, schoolIds, names);
    return assignBooks(q);
  });
  // Fresh statistics for the planner and a visibility map for index-only scans: PGlite has no
  // autovacuum, and PostgreSQL's would come only later.
  await db.query('VACUUM ANALYZE schools, teachers, students, school_books, teacher_books, student_books');
  return { schools, teachers, students, assignments, ms: Date.now() - started };
}

async function insertSchools(q: Query, n: number, password: string, where: Place[]): Promise<number[]> {
  const rows = await q<{ school_id: number }>(
    `INSERT INTO schools (school_name, school_address, password, email, contact_no, country, state, city, status)
     SELECT names[1 + (i - 1) % array_length(names, 1)] || ' School, ' || cities[p] ||
              CASE WHEN i > array_length(names, 1) THEN ' ' || (1 + (i - 1) / array_length(names, 1)) ELSE '' END,
            (1 + i % 200) || ' ' || streets[1 + i % array_length(streets, 1)] || ', ' || cities[p],
            $1, 'office' || i || '@school' || i || '.example',
            '+91 22 ' || lpad((2000000 + i::bigint * 37 % 7999999)::text, 8, '0'),
            countries[p], states[p], cities[p],
            CASE WHEN i % 20 = 0 THEN 'Disabled' ELSE 'Enabled' END
       FROM generate_series(1, $2::int) AS i,
            LATERAL (SELECT 1 + (i * 7) % array_length($4::text[], 1) AS p) AS pick,
            LATERAL (SELECT $3::text[] AS names, $4::text[] AS countries, $5::text[] AS states,
                            $6::text[] AS cities, $7::text[] AS streets) AS lists
     RETURNING school_id`,
    [
      password,
      n,
      SCHOOL_NAMES,
      where.map((p) => p.country),
      where.map((p) => p.state),
      where.map((p) => p.city),
      [
        'Hill Road',
        'Station Road',
        'Rue de la Paix',
        'Calle Mayor',
        'Hauptstraße',
        'Avenida Paulista',
        'MG Road',
      ],
    ],
  );
  return rows.map((r) => r.school_id);
}

/**
 * People (teachers, students): the i-th of `n` takes its name from the lists with multipliers
 * coprime to their lengths (the 50 x 50 names combine in 2,500 ways), its school (and so its
 * place) from `schoolIds`, and its other columns from `values`, an SQL select list that sees
 * i, full_name, local_part, school_id, country, state, city and the password as $1.
 */
async function insertPeople(
  q: Query,
  target: string,
  values: string,
  n: number,
  password: string,
  schoolIds: number[],
  names: string[][],
): Promise<void> {
  if (n === 0 || schoolIds.length === 0) return;
  await q(
    `INSERT INTO ${target}
     SELECT ${values} FROM (
       SELECT i, s.school_id, s.country, s.state, s.city,
              f[1 + (i * 7) % array_length(f, 1)] || ' ' || l[1 + (i / 50 + i * 3) % array_length(l, 1)] AS full_name,
              fa[1 + (i * 7) % array_length(fa, 1)] || '.' || la[1 + (i / 50 + i * 3) % array_length(la, 1)] || '.' || i AS local_part
         FROM generate_series(1, $2::int) AS i
              CROSS JOIN LATERAL (SELECT $4::text[] AS f, $5::text[] AS fa, $6::text[] AS l, $7::text[] AS la) AS lists
              JOIN schools s ON s.school_id = ($3::int[])[1 + (i * 31) % array_length($3::int[], 1)]) AS people`,
    [password, n, schoolIds, ...names],
  );
}

const TEACHERS = {
  target:
    'teachers (teacher_name, email, password, contact_no, school_id, country, state, city, zipcode, date_added, status)',
  values: `full_name, lower(local_part) || '@teachers.example', $1,
           '+91 98' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
           school_id, country, state, city, (100000 + i::bigint * 53 % 899999)::text,
           now() - (i % 1500) * interval '1 day',
           CASE WHEN i % 7 = 0 THEN 'Disabled' ELSE 'Enabled' END`,
};

const STUDENTS = {
  target:
    'students (student_name, email, password, contact_no, school_id, class_name, country, state, city, zipcode, status)',
  values: `full_name, lower(local_part) || '@students.example', $1,
           '+91 99' || lpad((i::bigint * 104729 % 100000000)::text, 8, '0'),
           school_id, 'Class ' || (1 + i % 12), country, state, city, (100000 + i::bigint * 61 % 899999)::text,
           CASE WHEN i % 10 = 0 THEN 'Disabled' ELSE 'Enabled' END`,
};

/**
 * Books for about one school in three, one teacher in four and one student in five (one to
 * three books each), among the books there are. Returns how many assignments were made.
 * Only rows this transaction inserted (xmin: the inserting transaction) get books: their revs
 * are fresh, whereas an older row given a set without the owner-touch trigger would keep an
 * old rev and a delta pull would never bring its new set.
 */
async function assignBooks(q: Query): Promise<number> {
  const [{ books }] = await q<{ books: number[] | null }>(
    'SELECT array_agg(book_id ORDER BY book_id) AS books FROM books',
  );
  if (!books || books.length === 0) return 0;
  let made = 0;
  for (const [table, owner, key, every] of [
    ['schools', 'school_books', 'school_id', 3],
    ['teachers', 'teacher_books', 'teacher_id', 4],
    ['students', 'student_books', 'student_id', 5],
  ] as const) {
    const trigger = `${owner}_touch`;
    await q(`ALTER TABLE ${owner} DISABLE TRIGGER ${trigger}`);
    const rows = await q<{ n: number }>(
      `WITH picked AS (
         INSERT INTO ${owner} (${key}, book_id)
         SELECT DISTINCT o.${key}, ($1::int[])[1 + (o.${key} * k + k) % array_length($1::int[], 1)]
           FROM ${table} o, generate_series(1, 1 + o.${key} % 3) AS k
          WHERE o.${key} % ${every} = 0 AND o.xmin = pg_current_xact_id()::xid
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS n FROM picked`,
      [books],
    );
    await q(`ALTER TABLE ${owner} ENABLE TRIGGER ${trigger}`);
    made += rows[0].n;
  }
  return made;
}
