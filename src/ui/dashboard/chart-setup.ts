/**
 * Chart.js with only what the dashboard draws (bar and line charts, their axes and legend):
 * loaded by dynamic import as the dashboard opens, beside its figures' reads, never on the
 * first load. Colours come from the custom properties of src/ui/styles.css.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
} from 'chart.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
);

export { Chart };
