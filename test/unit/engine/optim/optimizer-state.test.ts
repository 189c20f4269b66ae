import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { parseHeader, writeSafetensors } from '../../../../src/engine/model/index.ts';
import { readOptimizerState, resolveSettings, writeOptimizerState, type OptimizerState, type ParameterShape } from '../../../../src/engine/optim/index.ts';
import { randomTensor } from '../../../support/check-tensor.ts';

const A: ParameterShape = { name: 'base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight', shape: [2, 3] };
const B: ParameterShape = { name: 'base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight', shape: [5, 2] };

function state(): OptimizerState {
  const settings = resolveSettings({ lr: 2e-4, weightDecay: 0.05, maxGradNorm: Infinity, schedule: { kind: 'cosine', warmupSteps: 3, totalSteps: 50 } });
  const moments = [A, B].map((p, i) => ({
    ...p,
    m: randomTensor(p.shape[0] * p.shape[1], 2 * i + 1),
    v: randomTensor(p.shape[0] * p.shape[1], 2 * i + 2, 0, 1),
  }));
  return { step: 17, settings, moments };
}

function errorOf(f: () => unknown): BatonError {
  try {
    f();
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

describe('optimizer state file', () => {
  it('round-trips step, hyper-parameters and moments exactly', () => {
    const saved = state();
    const read = readOptimizerState(writeOptimizerState(saved), [A, B]);
    expect(read.step).toBe(17);
    expect(read.settings).toEqual(saved.settings);
    read.moments.forEach((m, i) => {
      expect(m.name).toBe(saved.moments[i].name);
      expect(m.m).toEqual(saved.moments[i].m);
      expect(m.v).toEqual(saved.moments[i].v);
    });
  });

  it('is a standard safetensors file with exp_avg and exp_avg_sq per parameter', () => {
    const bytes = writeOptimizerState(state());
    const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const infos = parseHeader(bytes.subarray(8, 8 + headerLength), 'state');
    expect(infos.map((t) => [t.name, t.dtype, t.shape])).toEqual([
      [`${A.name}.exp_avg`, 'F32', [2, 3]],
      [`${A.name}.exp_avg_sq`, 'F32', [2, 3]],
      [`${B.name}.exp_avg`, 'F32', [5, 2]],
      [`${B.name}.exp_avg_sq`, 'F32', [5, 2]],
    ]);
  });

  it('rejects state for other parameters, naming the tensor', () => {
    const bytes = writeOptimizerState(state());
    const swapped = errorOf(() => readOptimizerState(bytes, [{ ...A, shape: [3, 2] }, B]));
    expect(swapped.code).toBe('data/invalid');
    expect(swapped.data).toMatchObject({ tensor: `${A.name}.exp_avg`, shape: [2, 3], expected: [3, 2] });
    expect(errorOf(() => readOptimizerState(bytes, [A])).data).toEqual({ tensor: `${B.name}.exp_avg` });
    expect(errorOf(() => readOptimizerState(bytes, [A, B, { name: 'c', shape: [1] }])).data).toEqual({ tensor: 'c.exp_avg' });
  });

  it('rejects moments not saved as F32, which would not resume exactly', () => {
    const s = state();
    const meta = {
      format: 'baton-adamw',
      version: '1',
      step: '1',
      lr: '0.1',
      beta1: '0.9',
      beta2: '0.999',
      eps: '1e-8',
      weight_decay: '0',
      max_grad_norm: '1',
      schedule: '{"kind":"constant"}',
    };
    const tensors = s.moments.flatMap((p) => [
      { name: `${p.name}.exp_avg`, dtype: 'F16' as const, shape: [...p.shape], data: p.m },
      { name: `${p.name}.exp_avg_sq`, dtype: 'F32' as const, shape: [...p.shape], data: p.v },
    ]);
    const e = errorOf(() => readOptimizerState(writeSafetensors(tensors, meta), [A, B]));
    expect(e.code).toBe('data/invalid');
    expect(e.data).toMatchObject({ dtype: 'F16' });
  });

  it('rejects a file that is not optimiser state, or whose hyper-parameters are unusable', () => {
    const moments = state().moments.flatMap((p) => [{ name: `${p.name}.exp_avg`, dtype: 'F32' as const, shape: [...p.shape], data: p.m }]);
    expect(errorOf(() => readOptimizerState(writeSafetensors(moments), [A, B])).data).toEqual({ format: undefined, version: undefined });
    const bad = {
      format: 'baton-adamw',
      version: '1',
      step: '2',
      lr: '0.1',
      beta1: '1.5',
      beta2: '0.999',
      eps: '1e-8',
      weight_decay: '0',
      max_grad_norm: '1',
      schedule: '{"kind":"constant"}',
    };
    const e = errorOf(() => readOptimizerState(writeSafetensors([], bad), []));
    expect(e.code).toBe('data/invalid');
    expect(e.data).toMatchObject({ field: 'beta1' });
    expect(errorOf(() => readOptimizerState(writeSafetensors([], { ...bad, beta1: '0.9', step: '-1' }), [])).data).toEqual({ step: '-1' });
    expect(errorOf(() => readOptimizerState(writeSafetensors([], { ...bad, beta1: '0.9', schedule: 'cosine' }), [])).data).toEqual({ schedule: 'cosine' });
  });

  it('reports a truncated file as damaged', () => {
    expect(errorOf(() => readOptimizerState(writeOptimizerState(state()).subarray(0, 100), [A, B])).code).toBe('engine/model-file');
  });
});
