/**
 * The list engine's User Timing measures ('lists read students', 'lists order
 * students.student_name'), which profiles show and the list benchmark prints.
 */
import { measurer } from '../user-timing';

/** Measures from `start` to now; returns now, the start of whatever is measured next. */
export const measure = measurer('lists');
