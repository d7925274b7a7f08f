import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { AnalyticsSummary } from '../../domain/analytics.ts'

export interface ChartLabels {
  views: string
  visitors: string
  requests: string
}

/**
 * Views, visitors and requests per day with uPlot (docs/analytics.md): loaded with this screen's
 * own chunk only, never with the first screen.
 */
export default function DaysChart({
  days,
  labels,
}: {
  days: AnalyticsSummary['days']
  labels: ChartLabels
}) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const x = days.map((d) => Date.parse(`${d.date}T12:00:00Z`) / 1000)
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Europe/Moscow'),
        series: [
          {},
          { label: labels.views, stroke: '#228be6', width: 2 },
          { label: labels.visitors, stroke: '#40c057', width: 2 },
          { label: labels.requests, stroke: '#fd7e14', width: 2 },
        ],
        axes: [{}, { size: 48 }],
        scales: { x: { time: true } },
      },
      [x, days.map((d) => d.views), days.map((d) => d.visitors), days.map((d) => d.submissions)],
      el,
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 260 }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [days, labels])
  return <div ref={box} data-testid="analytics-chart" />
}
