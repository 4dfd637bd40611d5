/**
 * The large list the list benchmark (bench/lists.mjs) works on, generated the same way in the
 * page (which writes it) and in Node (which knows the answers to expect): a few hundred schools
 * and 100,000 students with realistic names, some accented, some repeated. Deterministic: the
 * same seed gives the same rows.
 */
import { seededRandom } from './seeded-random.mjs';

const FIRST = [
  'Aarav',
  'Aisha',
  'Ana',
  'Björn',
  'Chen',
  'Chloé',
  'Daniel',
  'Élodie',
  'Emma',
  'Farah',
  'Gabriel',
  'Hana',
  'Ibrahim',
  'Isabel',
  'Jamal',
  'José',
  'Kavya',
  'Kofi',
  'Lars',
  'Liam',
  'Lucía',
  'Maya',
  'Mohammed',
  'Nadia',
  'Noah',
  'Ñora',
  'Oliver',
  'Olivia',
  'Oluwaseun',
  'Priya',
  'Rahul',
  'René',
  'Sara',
  'Sofía',
  'Tariq',
  'Uma',
  'Valentina',
  'Wei',
  'Yusuf',
  'Zoë',
];
const LAST = [
  'Adeyemi',
  'Banerjee',
  'Bianchi',
  'Chowdhury',
  'Dubois',
  'Fernández',
  'García',
  'Hoffmann',
  'Ivanova',
  'Jensen',
  'Kapoor',
  'Kowalski',
  'Larsen',
  'Mensah',
  'Müller',
  'Nakamura',
  'Nguyen',
  "O'Brien",
  'Okafor',
  'Papadopoulos',
  'Pereira',
  'Quispe',
  'Rossi',
  'Sharma',
  'Silva',
  'Smith',
  'Tanaka',
  'Umarov',
  'van der Berg',
  'Wiśniewski',
  'Yilmaz',
  'Zhou',
];
const CITIES = ['Pune', 'Lagos', 'Accra', 'Nairobi', 'Lima', 'Oslo', 'Lyon', 'Porto', 'Kraków', 'Osaka'];

export const SCHOOL_BASE = 1_000_000;
export const STUDENT_BASE = 1_000_000;

export function generate({ schools = 300, students = 100_000, seed = 17, dashboard = false } = {}) {
  const next = seededRandom(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const schoolRows = [];
  for (let i = 0; i < schools; i++) {
    const city = pick(CITIES);
    schoolRows.push({
      school_id: String(SCHOOL_BASE + i),
      school_name: `${city} ${pick(['Public', 'International', 'Model', 'Central'])} School ${i + 1}`,
      school_address: `${i + 1} Main Road, ${city}`,
      email: `school${i + 1}@example.org`,
      contact_no: `+91 98${String(10000000 + i).slice(-8)}`,
      country: 'IN',
      state: 'MH',
      city,
      school_logo: '',
      status: 'Enabled',
      books: [],
    });
  }
  const studentRows = [];
  for (let i = 0; i < students; i++) {
    const school = schoolRows[Math.floor(next() * schools)];
    // Names repeat (a first name, an initial and a family name), as in any large school system.
    const name = `${pick(FIRST)} ${String.fromCharCode(65 + Math.floor(next() * 26))}. ${pick(LAST)}`;
    studentRows.push({
      student_id: String(STUDENT_BASE + i),
      student_name: name,
      school_id: school.school_id,
      school_name: school.school_name,
      email: `student${i + 1}@example.org`,
      contact_no: `+91 97${String(10000000 + i).slice(-8)}`,
      country: 'IN',
      state: 'MH',
      city: school.city,
      zipcode: String(411000 + (i % 100)),
      class_name: `Class ${1 + (i % 12)}`,
      profile_pic: '',
      status: next() < 0.1 ? 'Disabled' : 'Enabled',
      books: [],
    });
  }
  const out = { schools: schoolRows, students: studentRows, teachers: [], books: [] };
  if (dashboard) addDashboardRows(out, seed);
  return out;
}

export const BOOK_BASE = 1_000_000;
export const TEACHER_BASE = 1_000_000;

/**
 * For the dashboard's benchmark (bench/dashboard.mjs): 40 books, one student in five holding one
 * to three of them, and 5,000 teachers added over the last six months (one in seven Disabled).
 * From a second random sequence, so the students' names stay those of the list benchmark.
 */
function addDashboardRows(out, seed) {
  const next = seededRandom(seed + 1);
  const DAY = 86_400_000;
  const now = Date.now();
  out.books = Array.from({ length: 40 }, (_, i) => ({
    book_id: String(BOOK_BASE + i),
    book_name: `Reader ${i + 1}`,
    status: 'Disabled',
  }));
  for (const student of out.students) {
    if (next() >= 0.2) continue;
    const n = 1 + Math.floor(next() * 3);
    student.books = [
      ...new Set(Array.from({ length: n }, () => String(BOOK_BASE + Math.floor(next() * 40)))),
    ];
  }
  out.teachers = Array.from({ length: 5000 }, (_, i) => {
    const school = out.schools[i % out.schools.length];
    return {
      teacher_id: String(TEACHER_BASE + i),
      teacher_name: `Teacher ${i + 1}`,
      teacher_code: `T${String(TEACHER_BASE + i)}`,
      school_id: school.school_id,
      school_name: school.school_name,
      email: `teacher${i + 1}@example.org`,
      date_added: new Date(now - Math.floor(next() * 182) * DAY).toISOString(),
      status: i % 7 === 0 ? 'Disabled' : 'Enabled',
      books: [],
    };
  });
}
