import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import type { EngineDevice } from '../../../src/engine/device/index.ts';
import {
  AdamW,
  adamwRef,
  clipCoefficient,
  globalNorm,
  learningRate,
  readOptimizerState,
  sumSquaresGroups,
  sumSquaresRef,
  type AdamWOptions,
  type AdamWState,
  type TrainedParameter,
} from '../../../src/engine/optim/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { useTestDevice } from '../../support/webgpu.ts';

// Three parameters, none a multiple of the 256-value workgroup.
const SHAPES: [string, number[]][] = [
  ['layers.0.q_proj.lora_A.weight', [4, 75]],
  ['layers.0.q_proj.lora_B.weight', [7, 11]],
  ['layers.1.v_proj.lora_A.weight', [3]],
];
const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/** Parameter buffers holding `values`, with gradient buffers beside them. */
async function parameters(device: EngineDevice, values: Float32Array[]): Promise<TrainedParameter[]> {
  return Promise.all(
    SHAPES.map(async ([name, shape], i) => ({
      name,
      shape,
      param: await device.upload(values[i], name),
      grad: device.createBuffer(4 * size(shape), `${name}.grad`),
    })),
  );
}

const initial = () => SHAPES.map(([, shape], i) => randomTensor(size(shape), 100 + i, -1, 1));
/** Step s's gradients; every other step scaled far above maxGradNorm 1, so clipping is on and off in turn. */
const gradients = (s: number) => SHAPES.map(([, shape], i) => randomTensor(size(shape), 1000 * s + i, -1, 1).map((g) => g * (s % 2 === 0 ? 2 : 0.01)));

async function train(device: EngineDevice, optimizer: AdamW, params: TrainedParameter[], steps: number[]) {
  const reports = [];
  for (const s of steps) {
    gradients(s).forEach((g, i) => device.write(params[i].grad, g));
    reports.push(await optimizer.step());
  }
  return reports;
}

const readParams = (device: EngineDevice, params: TrainedParameter[]) => Promise.all(params.map((p) => device.readF32(p.param, 0, size([...p.shape]))));
const free = (device: EngineDevice, params: TrainedParameter[]) => params.forEach((p) => [p.param, p.grad].forEach((b) => device.free(b)));

const OPTIONS: AdamWOptions = { lr: 0.05, weightDecay: 0.1, maxGradNorm: 1, schedule: { kind: 'cosine', warmupSteps: 1, totalSteps: 5 } };

describe('AdamW', () => {
  const device = useTestDevice();

  it('takes the steps of the float64 reference: global norm, clip, schedule, bias corrections', async () => {
    const values = initial();
    const params = await parameters(device(), values);
    const optimizer = new AdamW(device(), params, OPTIONS);
    const reports = await train(device(), optimizer, params, [0, 1, 2, 3]);

    let ref: AdamWState[] = values.map((p) => ({ param: Float64Array.from(p), m: new Float64Array(p.length), v: new Float64Array(p.length) }));
    reports.forEach((report, step) => {
      const grads = gradients(step);
      const norm = globalNorm(sumSquaresRef(grads));
      const clip = clipCoefficient(norm, 1);
      const lr = learningRate(0.05, OPTIONS.schedule!, step);
      if (!report.applied) throw new Error(report.reason);
      expect(report).toMatchObject({ step: step + 1, lr });
      checkTensor(`norm at step ${step}`, [report.gradNorm, report.clip], [norm, clip]);
      ref = ref.map((r, i) => adamwRef(r.param, grads[i], r.m, r.v, { step, lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, clip }));
    });
    expect(reports.map((r) => r.applied && r.clip < 1)).toEqual([true, false, true, false]);
    expect(reports[0].applied && reports[0].lr).toBe(0); // warm-up starts from 0

    const state = readOptimizerState(await optimizer.exportState(), params);
    expect(state.step).toBe(4);
    const got = await readParams(device(), params);
    ref.forEach((r, i) => {
      checkTensor(`param ${i}`, got[i], r.param);
      checkTensor(`m ${i}`, state.moments[i].m, r.m);
      checkTensor(`v ${i}`, state.moments[i].v, r.v);
    });
    optimizer.destroy();
    free(device(), params);
  });

  it('resumed from exported state, takes bit for bit the steps of an uninterrupted run', async () => {
    const whole = await parameters(device(), initial());
    const uninterrupted = new AdamW(device(), whole, OPTIONS);
    await train(device(), uninterrupted, whole, [0, 1, 2, 3, 4]);

    const first = await parameters(device(), initial());
    const before = new AdamW(device(), first, OPTIONS);
    await train(device(), before, first, [0, 1, 2]);
    const saved = await before.exportState();
    // A fresh run: parameters as saved with the adapter, an optimiser made with other settings, which the state replaces.
    const second = await parameters(device(), await readParams(device(), first));
    const resumed = new AdamW(device(), second, { lr: 1, weightDecay: 0 });
    resumed.importState(saved);
    expect(resumed.stepCount).toBe(3);
    expect(resumed.settings).toEqual(before.settings);
    await train(device(), resumed, second, [3, 4]);

    const [a, b] = [await readParams(device(), whole), await readParams(device(), second)];
    a.forEach((p, i) => expect(Array.from(b[i])).toEqual(Array.from(p)));
    expect(await resumed.exportState()).toEqual(await uninterrupted.exportState());
    for (const o of [uninterrupted, before, resumed]) o.destroy();
    for (const p of [whole, first, second]) free(device(), p);
  });

  it('skips and reports a step with NaN or infinite gradients, changing nothing', async () => {
    const params = await parameters(device(), initial());
    const optimizer = new AdamW(device(), params, OPTIONS);
    await train(device(), optimizer, params, [0, 1]);
    const [paramsBefore, stateBefore] = [await readParams(device(), params), await optimizer.exportState()];

    const grads = gradients(2);
    grads[0][299] = NaN;
    grads[2][1] = -Infinity;
    grads.forEach((g, i) => device().write(params[i].grad, g));
    const report = await optimizer.step();
    expect(report).toMatchObject({ applied: false, step: 2, nonFinite: 2, parameters: [SHAPES[0][0], SHAPES[2][0]] });
    expect(!report.applied && report.reason).toMatch(/2 gradient values are NaN or infinite/);
    const paramsAfter = await readParams(device(), params);
    paramsBefore.forEach((p, i) => expect(Array.from(paramsAfter[i])).toEqual(Array.from(p)));
    expect(await optimizer.exportState()).toEqual(stateBefore);

    // Finite gradients again: training goes on from where it was.
    expect(await train(device(), optimizer, params, [2])).toMatchObject([{ applied: true, step: 3 }]);
    optimizer.destroy();
    free(device(), params);
  });

  it('skips a step whose gradients are finite but whose norm overflows f32', async () => {
    const params = await parameters(device(), initial());
    const optimizer = new AdamW(device(), params, OPTIONS);
    const grads = gradients(0);
    grads[1][5] = 3e38; // its square is past f32's largest value
    grads.forEach((g, i) => device().write(params[i].grad, g));
    const report = await optimizer.step();
    expect(report).toMatchObject({ applied: false, step: 0, nonFinite: 0, parameters: [SHAPES[1][0]] });
    expect(!report.applied && report.reason).toMatch(/overflows f32/);
    optimizer.destroy();
    free(device(), params);
  });

  it('gives back every buffer it made, on destroy and when one cannot be made', async () => {
    const params = await parameters(device(), initial());
    const held = device().memory.current;
    const optimizer = new AdamW(device(), params, OPTIONS);
    // m and v per parameter, two floats per block of partial sums, two for the total.
    const values = SHAPES.reduce((a, [, shape]) => a + size(shape), 0);
    const blocks = SHAPES.reduce((a, [, shape]) => a + sumSquaresGroups(size(shape)), 0);
    expect(blocks).toBe(4); // 300 values take two blocks
    expect(device().memory.current - held).toBe(4 * (2 * values + 2 * blocks + 2));
    optimizer.destroy();
    expect(device().memory.current).toBe(held);

    const huge = { name: 'too.large', shape: [2 ** 38], param: { size: 2 ** 40 } as GPUBuffer, grad: { size: 2 ** 40 } as GPUBuffer };
    expect(() => new AdamW(device(), [...params, huge], OPTIONS)).toThrow(expect.objectContaining({ code: 'engine/out-of-memory' }));
    expect(device().memory.current).toBe(held);
    free(device(), params);
  });

  it('refuses state saved for other parameters, keeping its own', async () => {
    const params = await parameters(device(), initial());
    const optimizer = new AdamW(device(), params, OPTIONS);
    await train(device(), optimizer, params, [0]);
    const own = await optimizer.exportState();
    const [other] = await parameters(device(), initial());
    const stranger = new AdamW(device(), [{ ...other, name: 'layers.9.o_proj.lora_B.weight' }], OPTIONS);
    const foreign = await stranger.exportState();
    expect(() => optimizer.importState(foreign)).toThrow(expect.objectContaining({ code: 'data/invalid' }));
    expect(() => optimizer.importState(foreign)).toThrow(BatonError);
    expect(await optimizer.exportState()).toEqual(own);
    for (const o of [optimizer, stranger]) o.destroy();
    free(device(), params);
    [other.param, other.grad].forEach((b) => device().free(b));
  });
});
