/**
 * providers/ prices its workers with pricing/, so pricing/ must not import providers/ (or anything else
 * in core): the price and usage types live here, and a cycle between the two folders cannot come back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PRICING = join(process.cwd(), 'src/core/pricing');

it('imports nothing from outside src/core/pricing', () => {
  const outside = readdirSync(PRICING)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(join(PRICING, f), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '([^']+)'/gms)].map((m) => `${f}: ${m[1]}`))
    .filter((line) => !line.split(': ')[1].startsWith('./'));
  expect(outside).toEqual([]);
});
