import { describe, it } from 'vitest';
import { adamwRef, adamwStep, adamwUniforms } from '../../../src/engine/optim/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

describe('adamwStep', () => {
  const device = useTestDevice();

  it('updates param, m and v as the reference does, mid-run, with decay and clipping (n not a multiple of 256)', async () => {
    const n = 300;
    const param = randomTensor(n, 1, -2, 2);
    const grad = randomTensor(n, 2, -3, 3);
    const m = randomTensor(n, 3, -0.5, 0.5);
    const v = randomTensor(n, 4, 0.01, 1); // a second moment is never negative
    const h = { step: 6, lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, clip: 0.4 };
    const out = await runKernel(device(), adamwStep, {}, { param, grad, m, v }, adamwUniforms(n, h));
    const ref = adamwRef(param, grad, m, v, h);
    checkTensor('m', out.m, ref.m);
    checkTensor('v', out.v, ref.v);
    checkTensor('param', out.param, ref.param);
  });

  it('takes a first step from zero moments (bias corrections at t = 1)', async () => {
    const n = 257;
    const param = randomTensor(n, 5, -1, 1);
    const grad = randomTensor(n, 6, -0.01, 0.01);
    const h = { step: 0, lr: 0.5, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, clip: 1 };
    const out = await runKernel(device(), adamwStep, {}, { param, grad, m: n, v: n }, adamwUniforms(n, h));
    const ref = adamwRef(param, grad, new Float64Array(n), new Float64Array(n), h);
    checkTensor('m', out.m, ref.m);
    checkTensor('v', out.v, ref.v);
    checkTensor('param', out.param, ref.param);
  });
});
