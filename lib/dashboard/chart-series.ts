/** One value column of a chart's rows: how the dashboard's charts name, colour and stack it. */
export interface ChartSeries {
  key: string;
  label: string;
  /** One of the theme's chart colours (--chart-1 … --chart-5). */
  color: 1 | 2 | 3 | 4 | 5;
  /** Series with the same stack id are stacked. */
  stack?: string;
}
