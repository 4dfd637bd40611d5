/**
 * One chart of figures with its data as a table: the table is always in the accessibility
 * tree (visually hidden while the chart shows, which is an image labelled as such), and
 * "Show as table" shows it instead of the chart. Chart.js (chart-setup.ts) loads on demand, as
 * the dashboard opens (loadChart) or else when a chart first draws. Nothing animates: a chart is drawn at once and redrawn in place,
 * where four charts animating for a second would hold a slow tablet's main thread while the
 * next ones draw, and at every change pushed.
 */
import { useEffect, useRef, useState } from 'react';

export interface Series {
  label: string;
  values: readonly number[];
  /** A colour custom property of styles.css ('--brand'). */
  colour: string;
}

export interface ChartPanelProps {
  id: string;
  title: string;
  kind: 'bar' | 'line';
  /** Bars along the horizontal axis, one row per label (long names stay readable). */
  horizontal?: boolean;
  /** Bars of the series stacked (parts of one whole) rather than side by side. */
  stacked?: boolean;
  /** The table's first column header (what a label is: School, Book, Week from). */
  rowHeader: string;
  labels: readonly string[];
  series: readonly Series[];
  /** Said under the title (what is counted, what is left out). */
  note?: string;
  /** Shown instead of the chart and the table when there is nothing to count. */
  empty?: string;
  /** Resolves when the chart may be drawn: not once the administrator has left its screen. */
  whenOnScreen?: () => Promise<void>;
}

let chartModule: Promise<typeof import('./chart-setup')> | undefined;
export const loadChart = () => {
  chartModule ??= import('./chart-setup');
  return chartModule;
};

/** A label cut for an axis (the table has it whole). */
const short = (label: string) => (label.length > 22 ? `${label.slice(0, 21)}…` : label);

export function ChartPanel(props: ChartPanelProps) {
  const [asTable, setAsTable] = useState(false);
  const { id, title, labels, series } = props;
  const nothing = props.empty !== undefined && labels.length === 0;
  return (
    <section className="chart-panel" aria-labelledby={`${id}-title`} data-testid={`chart-${id}`}>
      <div className="chart-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {!nothing && (
          <button
            type="button"
            className="button button-light button-small"
            onClick={() => setAsTable(!asTable)}
          >
            {asTable ? 'Show as chart' : 'Show as table'}
          </button>
        )}
      </div>
      {props.note && <p className="muted chart-note">{props.note}</p>}
      {nothing ? (
        <p className="muted">{props.empty}</p>
      ) : (
        <>
          {!asTable && <ChartCanvas {...props} />}
          {/* Shown, a wide table scrolls in its frame, which a keyboard can reach and scroll. */}
          <div
            className={asTable ? 'chart-table' : 'visually-hidden'}
            {...(asTable ? { role: 'region', 'aria-labelledby': `${id}-title`, tabIndex: 0 } : {})}
          >
            <table className="table" aria-labelledby={`${id}-title`} data-testid={`chart-${id}-table`}>
              <thead>
                <tr>
                  <th scope="col">{props.rowHeader}</th>
                  {series.map((s) => (
                    <th key={s.label} scope="col">
                      {s.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {labels.map((label, i) => (
                  // Labels may repeat (two schools of one name): the place keys the row.
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the figures
                  <tr key={i}>
                    <th scope="row">{label}</th>
                    {series.map((s) => (
                      <td key={s.label}>{s.values[i]}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

type ChartInstance = InstanceType<Awaited<ReturnType<typeof loadChart>>['Chart']>;

/** The canvas, drawn once Chart.js has loaded and redrawn in place when the figures change. */
function ChartCanvas({
  id,
  title,
  kind,
  horizontal,
  stacked,
  labels,
  series,
  whenOnScreen,
}: ChartPanelProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  /** The figures the chart was last given (as JSON): a push that moved none of them redraws nothing. */
  const shown = useRef('');
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    let gone = false;
    const root = getComputedStyle(document.documentElement);
    const data = {
      labels: labels.map(short),
      datasets: series.map((s) => {
        const colour = root.getPropertyValue(s.colour).trim() || '#1f4e8c';
        return { label: s.label, data: [...s.values], backgroundColor: colour, borderColor: colour };
      }),
    };
    const figures = JSON.stringify(data);
    if (chart.current && figures === shown.current) return;
    shown.current = figures;
    if (chart.current) {
      chart.current.data = data;
      chart.current.update('none');
      return;
    }
    void loadChart().then(async ({ Chart }) => {
      // Each chart drawn in a task of its own: four at once would hold the main thread longer.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await whenOnScreen?.();
      if (gone || !canvas.current) return;
      const valueAxis = { beginAtZero: true, stacked, ticks: { precision: 0 } };
      chart.current = new Chart(canvas.current, {
        type: kind,
        data,
        options: {
          indexAxis: horizontal ? 'y' : 'x',
          maintainAspectRatio: false,
          animation: false,
          scales: horizontal ? { x: valueAxis, y: { stacked } } : { x: { stacked }, y: valueAxis },
          plugins: { legend: { display: series.length > 1, position: 'bottom' } },
        },
      });
      setDrawn(true);
    });
    return () => {
      gone = true;
    };
  }, [kind, horizontal, stacked, labels, series, whenOnScreen]);

  // The chart goes with the canvas (the panel shows its table, or the screen closes).
  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );

  return (
    <div className="chart-frame" data-drawn={drawn || undefined}>
      <canvas
        ref={canvas}
        id={`${id}-canvas`}
        role="img"
        aria-label={`${title}: a ${kind === 'line' ? 'line' : 'bar'} chart; the table that follows has its figures`}
      />
    </div>
  );
}
