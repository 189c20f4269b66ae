import { describe, expect, it } from 'vitest';
import { expandPlusMinus, inequalityInterval, namedValue, shapeOf, vectorOf } from '../../../../src/core/reward/answer-shape.ts';

describe('shapeOf', () => {
  it('tells matrices, bracketed tuples, sets, lists and scalars apart', () => {
    expect(shapeOf('\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}')).toEqual({
      kind: 'matrix',
      rows: [
        ['1', '2'],
        ['3', '4'],
      ],
    });
    expect(shapeOf('(1,[2,3])')).toEqual({ kind: 'bracketed', open: '(', close: ')', items: ['1', '[2,3]'] });
    expect(shapeOf('[0,1)')).toEqual({ kind: 'bracketed', open: '[', close: ')', items: ['0', '1'] });
    expect(shapeOf('\\{1,2\\}')).toEqual({ kind: 'set', items: ['1', '2'], braced: true });
    expect(shapeOf('1,2')).toEqual({ kind: 'set', items: ['1', '2'], braced: false });
    expect(shapeOf('1\\pm\\sqrt{2}')).toEqual({ kind: 'set', items: ['1+\\sqrt{2}', '1-\\sqrt{2}'], braced: false });
    expect(shapeOf('(1+2)(3)')).toEqual({ kind: 'scalar', text: '(1+2)(3)' });
    expect(shapeOf('(5)')).toEqual({ kind: 'scalar', text: '(5)' });
  });

  it('reads vectors from one-row or one-column matrices and parenthesised tuples only', () => {
    expect(vectorOf(shapeOf('\\begin{pmatrix}1\\\\2\\end{pmatrix}'))).toEqual(['1', '2']);
    expect(vectorOf(shapeOf('(1,2)'))).toEqual(['1', '2']);
    expect(vectorOf(shapeOf('[1,2]'))).toBeNull();
    expect(vectorOf(shapeOf('\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}'))).toBeNull();
  });
});

describe('answer rewrites', () => {
  it('expands each \\pm and \\mp', () => {
    expect(expandPlusMinus('a\\pm b\\mp c')).toEqual(['a+b-c', 'a+b+c', 'a-b-c', 'a-b+c']);
    expect(expandPlusMinus('a+b')).toBeNull();
    expect(expandPlusMinus('\\pm1\\pm2\\pm3\\pm4\\pm5')).toBeNull();
  });

  it('takes the value of `name = value`, and only of that', () => {
    expect(namedValue('x=5')).toBe('5');
    expect(namedValue('f(x)=x^2')).toBe('x^2');
    expect(namedValue('(a,b)=(1,2)')).toBe('(1,2)');
    expect(namedValue('x+y=5')).toBeNull();
    expect(namedValue('x=y=5')).toBeNull();
  });

  it('turns one-variable inequalities into intervals', () => {
    expect(inequalityInterval('x<3')).toBe('(-\\infty,3)');
    expect(inequalityInterval('x\\ge 2')).toBe('[2,\\infty)');
    expect(inequalityInterval('-1\\le t<4')).toBe('[-1,4)');
    expect(inequalityInterval('x+y<3')).toBeNull();
    expect(inequalityInterval('3')).toBeNull();
  });
});
