// Daily cost by action type as stacked bars, rendered on the server as plain SVG: no chart
// library, no client JavaScript, and each bar segment carries a <title> tooltip. A window
// without cost gets a sentence instead: an empty plot would only show a made-up $0–$0.000001
// scale.
import type { DailyCostChart } from '@tandem/observability/reports';
import { microUsdToUsd } from '@tandem/contracts';
import { niceStep } from './chart-scale';
import { formatInt, formatMicroUsdTick, formatUsd } from './format';
import { colourOf } from './palette';

interface Geometry {
  /** Which of the two the stylesheet shows: `narrow` below 700 px, `wide` above. */
  name: 'wide' | 'narrow';
  width: number;
  height: number;
  /** At most this many day labels on the x axis. */
  dayLabels: number;
}

// Two drawings of one chart, swapped by a media query: scaled down to a phone's width, the wide
// one's 11-unit labels would be 4 px. The narrow one keeps them near 9 px, with fewer days named.
const WIDE: Geometry = { name: 'wide', width: 960, height: 300, dayLabels: 12 };
const NARROW: Geometry = { name: 'narrow', width: 420, height: 260, dayLabels: 5 };
const MARGIN = { top: 12, right: 12, bottom: 36, left: 76 };

export function CostChart({ chart }: { chart: DailyCostChart }) {
  const maxDay = Math.max(0, ...chart.dayTotalsMicroUsd);
  if (maxDay === 0) {
    return (
      <figure className="chart empty" data-testid="cost-chart-empty">
        <p className="muted">
          {chart.series.length === 0
            ? 'No LLM usage in this window, so there is no cost to chart.'
            : 'The LLM calls in this window cost nothing, so there is no cost to chart.'}
        </p>
        {chart.series.length > 0 ? <Legend chart={chart} /> : null}
      </figure>
    );
  }
  return (
    <figure className="chart">
      <Plot chart={chart} maxDay={maxDay} geometry={WIDE} />
      <Plot chart={chart} maxDay={maxDay} geometry={NARROW} />
      {/* Only a window with cost gets here, so there is always a series to list. */}
      <figcaption>
        <Legend chart={chart} />
      </figcaption>
    </figure>
  );
}

function Plot({
  chart,
  maxDay,
  geometry,
}: {
  chart: DailyCostChart;
  maxDay: number;
  geometry: Geometry;
}) {
  const { width: WIDTH, height: HEIGHT } = geometry;
  const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
  const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
  const step = niceStep(maxDay);
  const top = Math.max(step, Math.ceil(maxDay / step) * step);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const slot = PLOT_W / Math.max(chart.days.length, 1);
  const barWidth = Math.max(1, slot * 0.72);
  const labelEvery = Math.ceil(chart.days.length / geometry.dayLabels);
  const y = (micro: number): number => MARGIN.top + PLOT_H - (micro / top) * PLOT_H;
  // The wide drawing keeps the test id the admin e2e test counts bars in.
  const testId = geometry.name === 'wide' ? 'cost-chart' : 'cost-chart-narrow';
  const titleId = `${testId}-title`;

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      data-testid={testId}
      className={geometry.name}
    >
      <title id={titleId}>Daily LLM cost by action type (USD)</title>
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={MARGIN.left}
            x2={WIDTH - MARGIN.right}
            y1={y(tick)}
            y2={y(tick)}
            className="grid"
          />
          <text x={MARGIN.left - 8} y={y(tick) + 4} textAnchor="end" className="axis">
            {formatMicroUsdTick(tick, step)}
          </text>
        </g>
      ))}
      {chart.days.map((day, i) => {
        const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
        let stacked = 0;
        return (
          <g key={day}>
            {chart.series.map((series) => {
              const value = series.costMicroUsd[i] ?? 0;
              if (value === 0) return null;
              const y0 = y(stacked);
              stacked += value;
              return (
                <rect
                  key={series.actionType}
                  x={x}
                  y={y(stacked)}
                  width={barWidth}
                  height={Math.max(0.5, y0 - y(stacked))}
                  fill={colourOf(series.actionType)}
                >
                  <title>
                    {`${day} · ${series.actionType}: ${formatUsd(microUsdToUsd(value))} (${formatInt(series.calls[i] ?? 0)} calls)`}
                  </title>
                </rect>
              );
            })}
            {i % labelEvery === 0 ? (
              <text
                x={x + barWidth / 2}
                y={HEIGHT - MARGIN.bottom + 18}
                textAnchor="middle"
                className="axis"
              >
                {day.slice(5)}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} className="baseline" />
    </svg>
  );
}

function Legend({ chart }: { chart: DailyCostChart }) {
  return (
    <ul className="legend" aria-label="Action types">
      {chart.series.map((series) => (
        <li key={series.actionType}>
          <span className="swatch" style={{ background: colourOf(series.actionType) }} />
          {series.actionType}{' '}
          <span className="muted">
            {formatUsd(microUsdToUsd(series.costMicroUsd.reduce((a, b) => a + b, 0)))}
          </span>
        </li>
      ))}
    </ul>
  );
}
