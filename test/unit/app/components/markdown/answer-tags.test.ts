import { Marked } from 'marked';
import { expect, test } from 'vitest';
import { labelAnswers } from '../../../../../src/app/components/markdown/answer-tags.ts';
import { mathExtensions } from '../../../../../src/app/components/markdown/math-extension.ts';

/** The HTML marked makes of the labelled text, TeX shown as [tex] so the test needs no KaTeX. */
const html = (text: string) =>
  new Marked({ gfm: true })
    .use({ extensions: mathExtensions((tex) => `[${tex}]`) })
    .parse(labelAnswers(text), { async: false })
    .trim();

test('an answer inside a sentence stays in it, in bold', () => {
  expect(labelAnswers('It is <answer>391</answer>.')).toBe('It is **391**.');
  expect(html('It is <answer> 391 </answer>.')).toBe('<p>It is <strong>391</strong>.</p>');
  expect(html('Twice that is <answer>782</answer>, and half is <answer>195.5</answer>.')).toBe(
    '<p>Twice that is <strong>782</strong>, and half is <strong>195.5</strong>.</p>',
  );
  // A tag whose inside spans lines, in a sentence.
  expect(html('So x = <answer>\n4\n</answer> here.')).toBe('<p>So x = <strong>4</strong> here.</p>');
  expect(html('Nothing given: <answer> </answer>.')).toBe('<p>Nothing given: .</p>');
});

test('an answer on a line of its own is a labelled paragraph', () => {
  expect(html('Working shown.\n<answer>391</answer>\nDone.')).toBe('<p>Working shown.</p>\n<p><strong>Answer:</strong> 391</p>\n<p>Done.</p>');
  expect(html('  <answer>42</answer>  ')).toBe('<p><strong>Answer:</strong> 42</p>');
  // Several paragraphs cannot sit inside a sentence: labelled too.
  expect(html('See: <answer>First.\n\nSecond.</answer>')).toBe('<p>See: </p>\n<p><strong>Answer:</strong> First.</p>\n<p>Second.</p>');
});

test('bare TeX in an answer is math, inline or labelled', () => {
  expect(html('In lowest terms it is <answer>\\frac{3}{4}</answer>.')).toBe('<p>In lowest terms it is <strong>[\\frac{3}{4}]</strong>.</p>');
  expect(html('<answer>x^2</answer>')).toBe('<p><strong>Answer:</strong> [x^2]</p>');
  // Already delimited, or not TeX: left as written.
  expect(labelAnswers('<answer>$x^2$</answer>')).toBe('\n\n**Answer:** $x^2$\n\n');
  expect(labelAnswers('It is <answer>C</answer>.')).toBe('It is **C**.');
});
