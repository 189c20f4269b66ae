import { describe, expect, it } from 'vitest';
import { visibleSteps } from '../../../../src/core/orchestra/access.ts';

describe('visibleSteps', () => {
  it('"all" is every earlier step; [] is none', () => {
    expect(visibleSteps('all', 3)).toEqual([0, 1, 2]);
    expect(visibleSteps('all', 0)).toEqual([]);
    expect(visibleSteps([], 4)).toEqual([]);
  });

  it('keeps listed earlier indices sorted and unique, never the step itself or a later one', () => {
    expect(visibleSteps([2, 0, 2], 3)).toEqual([0, 2]);
    expect(visibleSteps([1, 3, 4], 3)).toEqual([1]);
  });
});
