/**
 * The Train page's chart colours, taken from the app's tokens (styles/tokens.css) as the page shows them now,
 * light or dark. uPlot draws on a canvas, which takes colours, not var(): and each token is a light-dark()
 * pair that only an element's style resolves, so each is read off a probe in the chart's own place.
 * Checked in the browser by test/e2e/train-chart-colours.test.ts.
 */
export interface ChartColours {
  /** Tick values and the axis label. */
  text: string;
  /** Grid lines and ticks. */
  grid: string;
  /** The card behind the chart: the points' fill. */
  surface: string;
  /** One per line of a chart, in order. */
  series: string[];
}

const SERIES = ['--accent', '--bad', '--ok'];

export function chartColours(el: HTMLElement): ChartColours {
  const probe = document.createElement('span');
  el.append(probe);
  const read = (token: string) => {
    probe.style.color = `var(${token})`;
    return getComputedStyle(probe).color;
  };
  try {
    return { text: read('--muted'), grid: read('--border'), surface: read('--surface'), series: SERIES.map(read) };
  } finally {
    probe.remove();
  }
}
