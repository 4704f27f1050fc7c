// Daily cost by action type as stacked bars, rendered on the server as plain SVG: no chart
// library, no client JavaScript, and each bar segment carries a <title> tooltip.
import type { DailyCostChart } from '@tandem/observability/reports';
import { microUsdToUsd } from '@tandem/contracts';
import { niceStep } from './chart-scale';
import { formatInt, formatMicroUsdTick, formatUsd } from './format';
import { colourOf } from './palette';

const WIDTH = 960;
const HEIGHT = 300;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 76 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

export function CostChart({ chart }: { chart: DailyCostChart }) {
  const maxDay = Math.max(0, ...chart.dayTotalsMicroUsd);
  const step = niceStep(maxDay);
  const top = Math.max(step, Math.ceil(maxDay / step) * step);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const slot = PLOT_W / Math.max(chart.days.length, 1);
  const barWidth = Math.max(1, slot * 0.72);
  const labelEvery = Math.ceil(chart.days.length / 12);
  const y = (micro: number): number => MARGIN.top + PLOT_H - (micro / top) * PLOT_H;

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="cost-chart-title"
        data-testid="cost-chart"
      >
        <title id="cost-chart-title">Daily LLM cost by action type (USD)</title>
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
      {chart.series.length === 0 ? (
        <figcaption>No LLM usage in this window.</figcaption>
      ) : (
        <figcaption>
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
        </figcaption>
      )}
    </figure>
  );
}
