import { expect, it } from 'vitest';
import { tickLabels } from '../../../../../src/app/pages/train/axis-ticks.ts';

it('labels small dollars as distinct plain decimals, never two ticks alike', () => {
  // The ticks a chart of dollars per question had, two of them labelled "5e-4" before.
  expect(tickLabels([0.0004, 0.00045, 0.0005, 0.00055, 0.0006])).toEqual(['0.0004', '0.00045', '0.0005', '0.00055', '0.0006']);
  expect(tickLabels([0.00048, 0.00049, 0.0005])).toEqual(['0.00048', '0.00049', '0.0005']);
});

it('keeps round ticks short and hides float noise', () => {
  expect(tickLabels([0, 0.2, 0.4, 0.6000000000000001, 0.8, 1])).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1']);
  expect(tickLabels([0, 0.1 + 0.2, 0.6])).toEqual(['0', '0.3', '0.6']);
  expect(tickLabels([1000, 2000, 3000])).toEqual(['1000', '2000', '3000']);
  expect(tickLabels([-0.5, 0, 0.5])).toEqual(['-0.5', '0', '0.5']);
});

it('writes values below a ten-thousandth with an exponent, still distinct', () => {
  expect(tickLabels([0.00001, 0.000015, 0.00002])).toEqual(['1e-5', '1.5e-5', '2e-5']);
});
