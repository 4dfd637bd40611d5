/**
 * The dashboard's figures (src/db/dashboard/dashboard-figures.ts), with the tables the entity catalogue
 * names.
 */
import { type DashboardFigures, dashboardFigures } from '../../db/dashboard/dashboard-figures';
import { catalogue } from '../catalogue/built-catalogue';
import { db } from '../window-context';

export type { DashboardFigures };

const tables = {
  teachers: catalogue.tables.teacher,
  books: catalogue.tables.book,
  bookSets: catalogue.sets.filter((s) => s.target === 'book'),
};

export const readDashboard = (): Promise<DashboardFigures | null> => dashboardFigures(db, tables);
