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

export function generate({ schools = 300, students = 100_000, seed = 17 } = {}) {
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
  return { schools: schoolRows, students: studentRows };
}
