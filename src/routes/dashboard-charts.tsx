/**
 * The dashboard's charts, beside the spec's three figures and loaded after
 * them (homepage.tsx imports this on demand): students and teachers per school, active and
 * inactive records, the most assigned books and teachers added per week. Computed on the
 * device (src/app/dashboard/chart-figures.ts), so they hold offline and follow every change.
 * A load paints at once the figures shown at the last visit (app/dashboard/chart-snapshot.ts),
 * saying so, until the counts of every row replace them.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  type BookFigures,
  type ChartFigures,
  type CountFigures,
  watchChartFigures,
} from '../app/dashboard/chart-figures';
import { keepChartSnapshot, readChartSnapshot } from '../app/dashboard/chart-snapshot';
import { ChartPanel, type ChartPanelProps, loadChart } from '../ui/dashboard/ChartPanel';
import './dashboard-charts.css';
import { useWhenOnScreen } from './when-on-screen';

const OWNER_LABEL: Record<string, string> = { school: 'Schools', teacher: 'Teachers', student: 'Students' };
const BY_OWNER_COLOUR = ['--warn', '--ok', '--brand'];
const week = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** What each chart shows, from the figures counted so far (null: still counting). */
function panels({ counts, books }: ChartFigures): (ChartPanelProps | { id: string; title: string })[] {
  const countsPanels = counts ? countPanels(counts) : COUNT_TITLES;
  const booksPanel = books ? bookPanel(books) : { id: 'books', title: BOOKS_TITLE };
  return [countsPanels[0], countsPanels[1], booksPanel, countsPanels[2]];
}

const BOOKS_TITLE = 'Most assigned books';
const COUNT_TITLES = [
  { id: 'schools', title: 'Students and teachers per school' },
  { id: 'active', title: 'Active and inactive' },
  { id: 'weeks', title: 'Teachers added per week' },
];

function bookPanel(f: BookFigures): ChartPanelProps {
  return {
    id: 'books',
    title: BOOKS_TITLE,
    note: 'The ten books assigned to the most schools, teachers and students.',
    kind: 'bar',
    horizontal: true,
    stacked: true,
    rowHeader: 'Book',
    labels: f.books.map((b) => b.name),
    series: f.owners.map((o, i) => ({
      label: OWNER_LABEL[o.entity] ?? o.entity,
      values: f.books.map((b) => b.holders[o.table] ?? 0),
      colour: BY_OWNER_COLOUR[i % BY_OWNER_COLOUR.length],
    })),
    empty: 'No book is assigned yet.',
  };
}

function countPanels(f: CountFigures): ChartPanelProps[] {
  const people = (['school', 'teacher', 'student'] as const).map((e) => f.active[e]);
  return [
    {
      id: 'schools',
      title: COUNT_TITLES[0].title,
      note: 'The ten schools with the most students and teachers, then the other schools together.',
      kind: 'bar',
      horizontal: true,
      rowHeader: 'School',
      labels: f.schools.map((s) => (s.id ? s.name : `Others (${s.schools} schools)`)),
      series: [
        { label: 'Students', values: f.schools.map((s) => s.students), colour: '--brand' },
        { label: 'Teachers', values: f.schools.map((s) => s.teachers), colour: '--ok' },
      ],
      empty: 'No school has students or teachers yet.',
    },
    {
      id: 'active',
      title: COUNT_TITLES[1].title,
      note: 'By status: Enabled is active, Disabled inactive.',
      kind: 'bar',
      horizontal: true,
      stacked: true,
      rowHeader: 'Records',
      labels: ['Schools', 'Teachers', 'Students'],
      series: [
        { label: 'Active', values: people.map((p) => p.active), colour: '--ok' },
        { label: 'Inactive', values: people.map((p) => p.inactive), colour: '--muted' },
      ],
    },
    {
      id: 'weeks',
      title: COUNT_TITLES[2].title,
      note:
        'The last 13 weeks, from Monday, by the date each teacher was added. Schools and students ' +
        'carry no date added, so they are not counted here; a teacher added on this device and ' +
        'not yet sent counts in this week.',
      kind: 'line',
      rowHeader: 'Week from',
      labels: f.teachersPerWeek.map((w) => week.format(w.start)),
      series: [{ label: 'Teachers added', values: f.teachersPerWeek.map((w) => w.count), colour: '--brand' }],
    },
  ];
}

/** Chart.js, loaded ahead of the first chart (the dashboard calls it as it opens). */
export const loadChartCode = (): Promise<unknown> => loadChart();

export default function DashboardCharts() {
  /** What the charts showed at the last visit, shown until each part is counted again. */
  const [kept] = useState(readChartSnapshot);
  const [counted, setCounted] = useState<ChartFigures>({ counts: null, books: null });
  const [failed, setFailed] = useState(false);
  useEffect(
    () =>
      watchChartFigures(
        (f) => {
          setCounted(f);
          setFailed(false);
          keepChartSnapshot({
            counts: f.counts ?? kept?.counts ?? null,
            books: f.books ?? kept?.books ?? null,
          });
        },
        (error) => {
          console.error('Dashboard charts failed:', error);
          setFailed(true);
        },
      ),
    [kept],
  );
  const figures = useMemo(
    () => ({ counts: counted.counts ?? kept?.counts ?? null, books: counted.books ?? kept?.books ?? null }),
    [counted, kept],
  );
  const fromLastVisit = Boolean((!counted.counts && kept?.counts) || (!counted.books && kept?.books));
  const shown = useMemo(() => panels(figures), [figures]);
  const whenOnScreen = useWhenOnScreen();
  if (failed && !figures.counts && !figures.books)
    return <p className="muted">The charts could not be computed on this device.</p>;
  return (
    <>
      {/* One line either way, so the charts do not move when the counts replace the last visit's. */}
      <p className="muted chart-source" data-testid="charts-source">
        {fromLastVisit
          ? 'As at your last visit; counting again…'
          : counted.counts && counted.books
            ? 'Counted from the records on this device.'
            : 'Counting the records on this device…'}
      </p>
      <ChartGrid panels={shown} whenOnScreen={whenOnScreen} />
    </>
  );
}

/** The four panels: a chart with its table, or its title while its part is being counted. */
function ChartGrid({
  panels: shown,
  whenOnScreen,
}: {
  panels: ReturnType<typeof panels>;
  whenOnScreen: () => Promise<void>;
}) {
  return (
    <div className="chart-grid">
      {shown.map((p) =>
        'kind' in p ? (
          <ChartPanel key={p.id} {...p} whenOnScreen={whenOnScreen} />
        ) : (
          <section key={p.id} className="chart-panel" aria-labelledby={`${p.id}-title`}>
            <h2 id={`${p.id}-title`}>{p.title}</h2>
            <p className="muted">Counting…</p>
          </section>
        ),
      )}
    </div>
  );
}
