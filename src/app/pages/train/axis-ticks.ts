/**
 * Labels of a chart's value axis: as few significant digits as keep every tick's label apart, so ticks of
 * small dollars (0.00045, 0.0005) read as different numbers. Plain decimals down to 0.0001, exponents below.
 * Test: test/unit/app/pages/train/axis-ticks.test.ts.
 */

/** uPlot's ticks are sums of float steps (0.30000000000000004): 12 digits are all a label could mean. */
const MAX_DIGITS = 12;

function label(value: number, digits: number): string {
  const rounded = Number(value.toPrecision(digits));
  if (rounded === 0) return '0';
  return Math.abs(rounded) < 1e-4 ? rounded.toExponential() : String(rounded);
}

export function tickLabels(ticks: readonly number[]): string[] {
  for (let digits = 1; digits < MAX_DIGITS; digits++) {
    const labels = ticks.map((t) => label(t, digits));
    if (new Set(labels).size === labels.length) return labels;
  }
  return ticks.map((t) => label(t, MAX_DIGITS));
}
