import type { EntityDescription } from '../entity';
import { aboutUsEntity } from './about-us';
import { bookEntity } from './book';
import { bookPageEntity } from './book-page';
import { chapterEntity } from './chapter';
import { classEntity } from './class';
import { contentImageEntity } from './content-image';
import { libraryResourceEntity } from './library-resource';
import { questionEntity } from './question';
import { resourceTypeEntity } from './resource-type';
import { schoolEntity } from './school';
import { sectionEntity } from './section';
import { seriesEntity } from './series';
import { studentEntity } from './student';
import { subjectEntity } from './subject';
import { teacherEntity } from './teacher';
import { termsEntity } from './terms';
import { unitEntity } from './unit';

/**
 * Every entity, parents before children: pull walks this order so a child's parent is
 * already local when the child arrives.
 */
export const entities: readonly EntityDescription[] = [
  classEntity,
  subjectEntity,
  seriesEntity,
  bookEntity,
  sectionEntity,
  unitEntity,
  chapterEntity,
  resourceTypeEntity,
  // After chapters (and resource types): they name them.
  bookPageEntity,
  libraryResourceEntity,
  questionEntity,
  // After books: their sets of assigned books name books.
  schoolEntity,
  teacherEntity,
  studentEntity,
  // Content pages and the images in them (rich text names images by URL, not as a ref).
  contentImageEntity,
  aboutUsEntity,
  termsEntity,
];

export function entityByName(name: string): EntityDescription {
  const found = entities.find((e) => e.name === name);
  if (!found) throw new Error(`Unknown entity: ${name}`);
  return found;
}

export {
  aboutUsEntity,
  bookEntity,
  bookPageEntity,
  chapterEntity,
  classEntity,
  contentImageEntity,
  libraryResourceEntity,
  questionEntity,
  resourceTypeEntity,
  schoolEntity,
  sectionEntity,
  seriesEntity,
  studentEntity,
  subjectEntity,
  teacherEntity,
  termsEntity,
  unitEntity,
};
