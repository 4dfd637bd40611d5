/** Types of bench/lists-data.mjs (plain JavaScript, so Node runs it as it is). */
export const SCHOOL_BASE: number;
export const STUDENT_BASE: number;
export const BOOK_BASE: number;
export const TEACHER_BASE: number;
export function generate(options?: {
  schools?: number;
  students?: number;
  seed?: number;
  dashboard?: boolean;
}): {
  schools: Record<string, unknown>[];
  students: Record<string, unknown>[];
  /** Only with `dashboard`. */
  teachers: Record<string, unknown>[];
  books: Record<string, unknown>[];
};
