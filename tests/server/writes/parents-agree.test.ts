/**
 * Parents must agree (server/entity-writes/agreement.ts): a row's class,
 * subject, series, book and section are those of its nearest parent, on add and on an update
 * that moves the row. Runs on the demo tree (server/seed/demo.ts), whose ids are fixed:
 * classes 1-12 (Class n = n), subjects English 1, Mathematics 2, Science 3; series 1 Sunrise
 * English (Class 1, English), 2 the same for Class 2, 3 Number Fun (Class 1, Mathematics);
 * books 1 and 2 in series 1, book 4 in series 3; sections 1 and 2 in book 1, 3 in book 4;
 * units 1 and 2 in section 1, 3 in section 2, 5 in book 6 (Class 3, Science) without section.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db';
import { entityGraph } from '../../../server/entities/graph';
import { parentDisagreement } from '../../../server/entity-writes/agreement';
import { seedDemo } from '../../../server/seed/demo';
import {
  bookEntity,
  chapterEntity,
  entities,
  sectionEntity,
  seriesEntity,
  unitEntity,
} from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';
import { form } from '../support/files';

const suite = signedInSuite({ seedDemo: true });

/** Book 1's levels: Class 1, English, Sunrise English. */
const book1 = { selectedClass: 1, selectedSubject: 1, selectedSeries: 1, selectedBook: 1 };
const count = async (entity: typeof sectionEntity) =>
  (await suite.client.get(entity.api.list, { limit: 1000 })).body.total;

describe('on add', () => {
  it.each([
    ['class', { ...book1, selectedClass: 3 }, "Class does not match the book's class"],
    ['subject', { ...book1, selectedSubject: 3 }, "Subject does not match the book's subject"],
    ['series', { ...book1, selectedSeries: 2 }, "Series does not match the book's series"],
  ])("refuses a section whose %s is not its book's, and writes nothing", async (_level, levels, message) => {
    const before = await count(sectionEntity);
    const reply = await suite.client.post(sectionEntity.api.add, { ...levels, sectionName: 'Odd' });
    expect(reply).toMatchObject({ status: 400, body: { success: false, message } });
    expect(await count(sectionEntity)).toBe(before);
  });

  it("refuses the issue's case: Class 3 / Science with book 1 (Class 1 / English)", async () => {
    const reply = await suite.client.post(sectionEntity.api.add, {
      ...book1,
      selectedClass: 3,
      selectedSubject: 3,
      sectionName: 'Odd',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/does not match the book's/);
  });

  it("checks a book against its series (the series' own class and subject)", async () => {
    const reply = await suite.client.post(
      bookEntity.api.add,
      form({ selectedClass: 2, selectedSubject: 1, selectedSeries: 1, bookName: 'Odd', bookCode: 'ODD' }),
    );
    expect(reply).toMatchObject({ status: 400, body: { message: "Class does not match the series' class" } });
  });

  it('checks a unit against its section when it names one, else against its book', async () => {
    // Section 3 belongs to book 4, not book 1.
    const bad = await suite.client.post(unitEntity.api.add, {
      ...book1,
      selectedSection: 3,
      unitTitle: 'Odd',
    });
    expect(bad).toMatchObject({ status: 400, body: { message: "Book does not match the section's book" } });
    const good = await suite.client.post(unitEntity.api.add, {
      ...book1,
      selectedSection: 2,
      unitTitle: 'Fine',
    });
    expect(good).toMatchObject({ status: 200, body: { success: true } });
    const direct = await suite.client.post(unitEntity.api.add, {
      ...book1,
      selectedSection: '',
      unitTitle: 'Also',
    });
    expect(direct.status).toBe(200);
    const wrongClass = await suite.client.post(unitEntity.api.add, {
      ...book1,
      selectedClass: 2,
      selectedSection: '',
      unitTitle: 'Odd',
    });
    expect(wrongClass.body.message).toBe("Class does not match the book's class");
  });

  it("checks a chapter against its unit: the unit's section, or none when the unit has none", async () => {
    const chapter = (fields: Record<string, string | number>) =>
      suite.client.post(
        chapterEntity.api.add,
        form({ ...book1, chapterName: 'C', chapterDescription: '', chapterImage: 'null', ...fields }),
      );
    // Unit 3 is in section 2.
    expect((await chapter({ selectedSection: 1, selectedUnit: 3 })).body.message).toBe(
      "Section does not match the unit's section",
    );
    expect((await chapter({ selectedSection: 2, selectedUnit: 3 })).status).toBe(200);
    // Naming the unit without its section is what the Add Chapter cascade allows.
    expect((await chapter({ selectedSection: '', selectedUnit: 3 })).status).toBe(200);
    // Unit 5 has no section: naming one is a disagreement.
    const science = { selectedClass: 3, selectedSubject: 3, selectedSeries: 5, selectedBook: 6 };
    expect((await chapter({ ...science, selectedSection: 1, selectedUnit: 5 })).body.message).toBe(
      "Section does not match the unit's section",
    );
    expect((await chapter({ ...science, selectedSection: '', selectedUnit: 5 })).status).toBe(200);
    // Unit 5 is in book 6, not book 1: the nearest level that disagrees is named.
    expect((await chapter({ selectedSection: '', selectedUnit: 5 })).body.message).toBe(
      "Book does not match the unit's book",
    );
  });
});

describe('on update', () => {
  it('refuses a move to levels that disagree, and leaves the row as it was', async () => {
    const { body } = await suite.client.post(sectionEntity.api.add, { ...book1, sectionName: 'Movable' });
    const path = `${sectionEntity.api.update}?section_id=${body.id}`;
    const reply = await suite.client.post(path, { ...book1, selectedBook: 4, sectionName: 'Moved' });
    expect(reply).toMatchObject({
      status: 400,
      body: { message: "Series does not match the book's series" },
    });
    expect(
      (await suite.client.get(sectionEntity.api.get, { section_id: body.id })).body.section,
    ).toMatchObject({
      section_name: 'Movable',
      book_id: 1,
    });
    // A move with the book's own levels is fine.
    const moved = await suite.client.post(path, {
      selectedClass: 1,
      selectedSubject: 2,
      selectedSeries: 3,
      selectedBook: 4,
      sectionName: 'Moved',
    });
    expect(moved.status).toBe(200);
  });

  it('lets a row whose parent moved later be renamed without moving it', async () => {
    const R = seriesEntity.api;
    const { body: series } = await suite.client.post(R.add, {
      seriesName: 'Wanderer',
      selectedClass: 4,
      selectedSubject: 1,
    });
    const levels = { selectedClass: 4, selectedSubject: 1, selectedSeries: series.id };
    const { body: book } = await suite.client.post(
      bookEntity.api.add,
      form({ ...levels, bookName: 'Wanderer 1', bookCode: 'W1' }),
    );
    expect(book.success).toBe(true);
    // The series moves to Class 5; its book still says Class 4 (no cascade on the server).
    await suite.client.post(R.update, {
      series_id: series.id,
      seriesName: 'Wanderer',
      selectedClass: 5,
      selectedSubject: 1,
    });
    const renamed = await suite.client.post(
      bookEntity.api.update,
      form({ ...levels, book_id: book.id, bookName: 'Wanderer One', bookCode: 'W1' }),
    );
    expect(renamed).toMatchObject({ status: 200, body: { success: true } });
    // Moving it, though, must agree.
    const moved = await suite.client.post(
      bookEntity.api.update,
      form({ ...levels, selectedSubject: 2, book_id: book.id, bookName: 'Wanderer One', bookCode: 'W1' }),
    );
    expect(moved.body.message).toBe("Subject does not match the series' subject");
  });
});

describe('the demo data', () => {
  it('agrees everywhere (every seeded row passes the check)', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await db.tx(seedDemo);
      const graph = entityGraph(entities);
      for (const entity of entities) {
        for (const row of await db.query<Record<string, string | number | null>>(
          `SELECT * FROM ${entity.table}`,
        ))
          expect(
            await parentDisagreement(db.query, graph, entity, row),
            `${entity.name} ${row[entity.key]}`,
          ).toBeNull();
      }
    } finally {
      await db.close();
    }
  });
});
