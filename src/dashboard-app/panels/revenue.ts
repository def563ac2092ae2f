/** Dashboard → Revenue, last 30 days: captured revenue per day, HSA/FSA vs regular, and refunds (Chart.js), with a text summary. */
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
  Tooltip,
} from 'chart.js';
import { $, money } from '../dom.js';
import { graphql } from '../graphql.js';
import { query } from '../session.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

let chart: Chart | undefined;

/** Draws the last 30 days: the chart (made once, then updated) and its text summary. */
export async function refreshRevenue(): Promise<void> {
  const { revenueByDay: days } = await query(graphql('{ revenueByDay(days: 30) { day hsaFsa regular refunds } }'));
  const labels = days.map((d) => d.day.slice(5));
  const sets = [days.map((d) => d.hsaFsa / 100), days.map((d) => d.regular / 100), days.map((d) => d.refunds / 100)];
  const sum = (k: 'hsaFsa' | 'regular' | 'refunds') => days.reduce((s, d) => s + d[k], 0);
  $('revenue-summary').textContent =
    `Last 30 days: HSA/FSA ${money(sum('hsaFsa'))}, regular ${money(sum('regular'))}, refunds ${money(sum('refunds'))}.`;
  if (chart) {
    chart.data.labels = labels;
    chart.data.datasets.forEach((ds, i) => (ds.data = sets[i]));
    chart.update();
    return;
  }
  chart = new Chart($<HTMLCanvasElement>('revenue-chart'), {
    type: 'bar',
    data: {
      labels,
      datasets: [
        { label: 'HSA/FSA', data: sets[0], backgroundColor: '#0b6e4f', stack: 'revenue' },
        { label: 'Regular', data: sets[1], backgroundColor: '#1f4e9c', stack: 'revenue' },
        { label: 'Refunds', data: sets[2], backgroundColor: '#b3261e', stack: 'refunds' },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, ticks: { color: '#222' } },
        y: { stacked: true, beginAtZero: true, ticks: { color: '#222', callback: (v) => `$${v}` } },
      },
      plugins: { legend: { labels: { color: '#222' } } },
    },
  });
}

/** Signed out: the chart goes (nothing of the merchant stays on the page). */
export function clearRevenue(): void {
  chart?.destroy();
  chart = undefined;
}
