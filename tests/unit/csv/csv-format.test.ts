/**
 * The CSV format of import and export: dialects, header matching, every message a
 * row can get, duplicates inside the file, rows already up to date, the template, and an
 * export read back by the import.
 */
import { describe, expect, it } from 'vitest';
import { type CheckedRow, type ImportLookups, RowChecker } from '../../../src/contract/csv/check';
import { exportColumns, matchHeader, templateColumns } from '../../../src/contract/csv/csv-columns';
import { ExportWriter } from '../../../src/contract/csv/export-row';
import { parseAll } from '../../../src/contract/csv/parse';
import { templateText } from '../../../src/contract/csv/template';
import { csvText } from '../../../src/contract/csv/write';
import { schoolEntity, studentEntity, teacherEntity } from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';

const schools = new Map([
  ['5', 'Green Valley'],
  ['6', 'École Saint-Jean'],
  ['7', 'Twin Oaks'],
  ['8', 'Twin Oaks'],
]);
const classes = new Map([
  ['1', 'Class 1'],
  ['2', 'Class 2'],
]);
const rows = new Map<string, Record<string, unknown>>([
  [
    '40',
    {
      student_id: '40',
      student_name: 'Asha Rao',
      email: 'asha@example.com',
      contact_no: '+91 98765 43210',
      school_id: '5',
      class_name: 'Class 1',
      country: 'IN',
      state: 'MH',
      city: 'Mumbai',
      zipcode: '',
      status: 'Enabled',
    },
  ],
]);
const lookups: ImportLookups = {
  row: (id) => rows.get(id),
  names: (entity) => (entity === 'school' ? schools : entity === 'class' ? classes : new Map()),
  countries: [
    { id: 1, name: 'India', iso2: 'IN' },
    { id: 2, name: 'France', iso2: 'FR' },
  ],
  states: [
    { id: 1, name: 'Maharashtra', iso2: 'MH', country_code: 'IN' },
    { id: 2, name: 'Île-de-France', iso2: 'IDF', country_code: 'FR' },
  ],
};

const HEADER = 'Student Name,Email,Password,Contact Number,Country,State,City,Zip Code,School,Class';
const GOOD =
  'Ravi Kumar,ravi@example.com,secret-123,98765 43210,India,Maharashtra,Pune,411001,Green Valley,Class 2';

function check(
  text: string,
  entity: EntityDescription = studentEntity,
): { checker: RowChecker; rows: CheckedRow[] } {
  const { header, rows: parsed } = parseAll(text);
  const checker = new RowChecker(entity, header, lookups);
  return { checker, rows: parsed.map((r) => checker.check(r.cells, r.line)) };
}
const problemsOf = (row: CheckedRow) => row.problems.map((p) => `${p.field}: ${p.problem}`);

describe('dialects', () => {
  it('reads UTF-8 with and without a byte order mark, commas and semicolons alike', () => {
    for (const text of [
      `${HEADER}\n${GOOD}\n`,
      `\ufeff${HEADER}\r\n${GOOD}\r\n`,
      `${HEADER.replaceAll(',', ';')}\n${GOOD.replaceAll(',', ';')}`,
    ]) {
      const { rows: checked } = check(text);
      expect(checked).toHaveLength(1);
      expect(checked[0].problems).toEqual([]);
      expect(checked[0].values).toMatchObject({
        student_name: 'Ravi Kumar',
        school_id: '5',
        country: 'IN',
        state: 'MH',
      });
    }
  });

  it('reads quoted fields with commas, quotes and line breaks, and counts lines from the file', () => {
    const text = `School Name,School Address,Password,Email,Contact Number,Country,State,City
"Hill, Top","12 ""Main"" Road
Block B
Pune",pw-123456,a@example.com,12345,IN,MH,Pune

Low School,Road,pw-123456,not-an-email,12345,IN,MH,Pune
`;
    const { header, rows: parsed } = parseAll(text);
    expect(header[0]).toBe('School Name');
    expect(parsed.map((r) => r.line)).toEqual([2, 6]);
    expect(parsed[0].cells.slice(0, 2)).toEqual(['Hill, Top', '12 "Main" Road\nBlock B\nPune']);
    const { rows: checked } = check(text, schoolEntity);
    expect(checked[0].problems).toEqual([]);
    expect(checked[1]).toMatchObject({
      line: 6,
      problems: [{ field: 'Email', problem: 'Email must be a valid e-mail address' }],
    });
  });

  it('writes what it reads: quotes, separators, line breaks and accents survive', () => {
    const cells = ['a,b', 'say "hi"', 'two\nlines', 'semi;colon', ' padded ', 'Zoë'];
    const text = csvText([['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], cells]);
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(parseAll(text).rows[0].cells).toEqual(cells);
  });
});

describe('header matching', () => {
  it('matches labels, field and wire names ignoring case, spaces and accents, and lists unknown columns', () => {
    const match = matchHeader(studentEntity, [
      ' STUDENT name ',
      'e-mail',
      'contact_no',
      'schoolName',
      'School Name',
      'Pays',
      'ID',
      'className',
      'Zip code',
      'Favourite colour',
    ]);
    expect(match.columns.map((c) => c?.field ?? null)).toEqual([
      'student_name',
      'email',
      'contact_no',
      'school_id', // 'schoolName' is 'School Name', the list's parent name column
      null, // the same field again: read from its first column
      null,
      'student_id',
      'class_name',
      'zipcode',
      null,
    ]);
    expect(match.unknown).toEqual(['Pays', 'Favourite colour']);
    expect(
      matchHeader(schoolEntity, ['Ecole', 'SCHOOL_NAME', 'schoolAddress']).columns.map(
        (c) => c?.field ?? null,
      ),
    ).toEqual([null, 'school_name', 'school_address']);
  });

  it('reads a field named twice from its first column', () => {
    const match = matchHeader(studentEntity, ['Email', 'email']);
    expect(match.columns.map((c) => c?.field ?? null)).toEqual(['email', null]);
  });
});

describe('validation messages', () => {
  const row = (patch: Record<number, string>) =>
    GOOD.split(',')
      .map((v, i) => patch[i] ?? v)
      .join(',');
  const cases: [Record<number, string>, string][] = [
    [{ 0: '' }, 'Student Name: Student Name is required'],
    [{ 1: 'ravi@' }, 'Email: Email must be a valid e-mail address'],
    [{ 2: '' }, 'Password: Password is required'],
    [
      { 2: '(unchanged)' },
      'Password: Password cannot be "(unchanged)": that text means "keep the current password"',
    ],
    [
      { 3: '12' },
      'Contact Number: Contact Number must be 5 to 20 digits, with an optional leading + and spaces or dashes',
    ],
    [{ 4: 'Atlantis' }, 'Country: Country "Atlantis" not found'],
    [{ 5: 'Bavaria' }, 'State: State "Bavaria" not found in IN'],
    [{ 8: 'Nowhere High' }, 'School: School "Nowhere High" not found'],
    [{ 8: 'twin oaks' }, 'School: Several records are named "twin oaks": give the school\'s ID instead'],
    [{ 8: '' }, 'School: School is required'],
    [{ 9: 'Class 9' }, 'Class: Class "Class 9" not found'],
    [{ 0: 'x'.repeat(256) }, 'Student Name: Student Name is too long: at most 255 characters'],
  ];
  for (const [patch, message] of cases)
    it(message, () => {
      const { rows: checked } = check(`${HEADER}\n${row(patch)}`);
      expect(problemsOf(checked[0])).toEqual([message]);
    });

  it('a country code without the device’s countries is checked by the form’s rule', () => {
    const { header, rows: parsed } = parseAll(`${HEADER}\n${row({ 4: 'India', 5: 'MH' })}`);
    const bare = new RowChecker(studentEntity, header, { ...lookups, countries: [], states: [] });
    expect(problemsOf(bare.check(parsed[0].cells, 2))).toEqual([
      'Country: Country must be a two-letter country code',
    ]);
  });

  it('the status must be Enabled or Disabled, in any case', () => {
    const text = `Student Name,School,Status,Email,Password,Contact Number,Country\nA,5,disabled,a@x.org,pw-1234,12345,FR\nB,5,Maybe,b@x.org,pw-1234,12345,fr`;
    const { rows: checked } = check(text);
    expect(checked[0]).toMatchObject({ problems: [], status: 'Disabled', values: { country: 'FR' } });
    expect(problemsOf(checked[1])).toEqual(['Status: Status must be Enabled or Disabled']);
  });

  it('an unknown ID is a problem at the ID', () => {
    const { rows: checked } = check(`ID,Student Name\n999,Somebody`);
    expect(problemsOf(checked[0])).toEqual(['ID: No student with ID 999 on this device']);
  });

  it('a parent and a class by id, a school by its name with accents set aside', () => {
    const { rows: checked } = check(
      `${HEADER}\n${row({ 8: 'ecole saint-jean', 9: '1' })}\n${row({ 1: 'z@example.com', 8: '7' })}`,
    );
    expect(checked[0].values).toMatchObject({ school_id: '6', class_name: 'Class 1' });
    expect(checked[1].values.school_id).toBe('7');
  });
});

describe('duplicates inside the file', () => {
  it('a row repeating an earlier e-mail is reported on its own line; the first stays', () => {
    const text = `${HEADER}\n${GOOD}\n${GOOD.replace('Ravi Kumar', 'Other')}\n${GOOD.replace('ravi@', 'RAVI@')}`;
    const { rows: checked } = check(text);
    expect(checked[0].problems).toEqual([]);
    expect(checked.slice(1).map((r) => [r.line, problemsOf(r)])).toEqual([
      [3, ['Email: Email repeats line 2']],
      [4, ['Email: Email repeats line 2']],
    ]);
  });
});

describe('updates', () => {
  it('a row with an ID whose values equal the device’s record is up to date; a change sends only what changed', () => {
    const text = `ID,Student Name,Email,School,Country,State,Status,Password\n40,Asha Rao,asha@example.com,Green Valley,India,MH,Enabled,\n40,Asha R.,asha@example.com,5,IN,MH,Disabled,`;
    const { rows: checked } = check(text);
    expect(checked[0]).toMatchObject({ op: 'update', key: '40', upToDate: true, values: {}, problems: [] });
    // The same e-mail twice in one file is still a repeat, even on the same record.
    expect(checked[1]).toMatchObject({
      upToDate: false,
      values: { student_name: 'Asha R.' },
      status: 'Disabled',
    });
  });

  it('an update leaves a required field absent from the file as it is', () => {
    const { rows: checked } = check(`ID,Zip Code\n40,400001`);
    expect(checked[0]).toMatchObject({ problems: [], values: { zipcode: '400001' } });
  });
});

describe('template and export', () => {
  it('the template is the Add form’s fields in order with one example row that passes the rules', () => {
    expect(templateColumns(teacherEntity).map((c) => c.header)).toEqual([
      'Teacher Name',
      'Email',
      'Password',
      'Contact Number',
      'Country',
      'State',
      'City',
      'Zip Code',
      'School',
    ]);
    const text = templateText(schoolEntity);
    const { header, rows: parsed } = parseAll(text);
    expect(header).toEqual([
      'School Name',
      'School Address',
      'Password',
      'Email',
      'Contact Number',
      'Country',
      'State',
      'City',
    ]);
    expect(new RowChecker(schoolEntity, header, lookups).check(parsed[0].cells, 2).problems).toEqual([]);
  });

  it('the export has the ID, the Add form’s fields in the template’s order, then the list’s other columns, and reads back as up to date', () => {
    expect(exportColumns(teacherEntity).map((c) => c.header)).toEqual([
      'ID',
      ...templateColumns(teacherEntity)
        .map((c) => c.header)
        .filter((h) => h !== 'Password'),
      'Teacher Code',
      'Date Added',
      'Status',
    ]);
    expect(exportColumns(studentEntity).map((c) => c.header)).toEqual([
      'ID',
      'Student Name',
      'Email',
      'Contact Number',
      'Country',
      'State',
      'City',
      'Zip Code',
      'School',
      'Class',
      'Status',
    ]);
    const writer = new ExportWriter(studentEntity, lookups.names);
    const twin = { ...rows.get('40'), student_id: '41', school_id: '7', email: 'b, "quoted"@example.com' };
    rows.set('41', twin);
    const text = `\ufeff${writer.header()}${writer.line(rows.get('40')!)}${writer.line(twin)}`;
    const { rows: checked } = check(text);
    expect(checked.map((r) => [r.upToDate, r.problems.map((p) => p.field)])).toEqual([
      [true, []],
      [true, ['Email']], // the e-mail is not valid, as it was on the device
    ]);
    // A school whose name another school shares is written by its id.
    expect(text).toContain(',7,');
  });
});
