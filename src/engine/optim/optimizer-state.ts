/**
 * The optimiser's state as a safetensors file, saved beside the adapter so a resumed run continues
 * exactly: per parameter `<name>.exp_avg` and `<name>.exp_avg_sq` (F32, the parameter's shape; the names
 * of torch.optim.AdamW's state), and in the metadata the step count and every hyper-parameter. Reading
 * checks the file against the parameters it is meant for: same names, same shapes, F32, nothing missing
 * or extra.
 */
import { BatonError } from '../../core/errors/index.ts';
import { decodeTensor, headerLength, parseHeader, writeSafetensors } from '../model/index.ts';
import { resolveSettings, type AdamWSettings } from './adamw-settings.ts';

const FORMAT = 'baton-adamw';
const VERSION = '1';
const FILE = 'optimiser state';

export interface ParameterShape {
  readonly name: string;
  readonly shape: readonly number[];
}

interface Moments extends ParameterShape {
  readonly m: Float32Array; // (shape) exp_avg
  readonly v: Float32Array; // (shape) exp_avg_sq
}

export interface OptimizerState {
  /** Steps taken. */
  readonly step: number;
  readonly settings: AdamWSettings;
  readonly moments: readonly Moments[];
}

function invalid(message: string, data: Record<string, unknown>): BatonError {
  return new BatonError({
    code: 'data/invalid',
    message: `Optimiser state: ${message} Resume with the adapter this state was saved with, or start the optimiser afresh.`,
    data,
  });
}

export function writeOptimizerState(state: OptimizerState): Uint8Array<ArrayBuffer> {
  const s = state.settings;
  const metadata: Record<string, string> = {
    format: FORMAT,
    version: VERSION,
    step: String(state.step),
    lr: String(s.lr),
    beta1: String(s.beta1),
    beta2: String(s.beta2),
    eps: String(s.eps),
    weight_decay: String(s.weightDecay),
    max_grad_norm: String(s.maxGradNorm),
    schedule: JSON.stringify(s.schedule),
  };
  const tensors = state.moments.flatMap((p) => [
    { name: `${p.name}.exp_avg`, dtype: 'F32' as const, shape: [...p.shape], data: p.m },
    { name: `${p.name}.exp_avg_sq`, dtype: 'F32' as const, shape: [...p.shape], data: p.v },
  ]);
  return writeSafetensors(tensors, metadata);
}

/** The state in `bytes`, checked against `expected` (the optimiser's parameters, in its order). */
export function readOptimizerState(bytes: Uint8Array, expected: readonly ParameterShape[]): OptimizerState {
  const length = headerLength(bytes.subarray(0, 8), FILE, bytes.byteLength);
  const headerBytes = bytes.subarray(8, 8 + length);
  const infos = new Map(parseHeader(headerBytes, FILE, bytes.byteLength).map((t) => [t.name, t]));
  const { step, settings } = readMetadata(headerBytes);

  const wanted = new Set(expected.flatMap((p) => [`${p.name}.exp_avg`, `${p.name}.exp_avg_sq`]));
  const extra = [...infos.keys()].find((name) => !wanted.has(name));
  if (extra !== undefined) throw invalid(`it holds ${extra}, which belongs to none of the parameters being trained.`, { tensor: extra });
  const tensor = (p: ParameterShape, suffix: string): Float32Array => {
    const name = `${p.name}.${suffix}`;
    const info = infos.get(name);
    if (!info) throw invalid(`${name} is missing.`, { tensor: name });
    if (info.dtype !== 'F32') throw invalid(`${name} is ${info.dtype}; moments are saved as F32.`, { tensor: name, dtype: info.dtype });
    if (info.shape.length !== p.shape.length || info.shape.some((d, i) => d !== p.shape[i])) {
      throw invalid(`${name} has shape [${info.shape}] where the parameter has [${p.shape}].`, { tensor: name, shape: info.shape, expected: [...p.shape] });
    }
    return decodeTensor(bytes.subarray(info.offset, info.offset + info.byteLength), info);
  };
  const moments = expected.map((p) => ({ name: p.name, shape: p.shape, m: tensor(p, 'exp_avg'), v: tensor(p, 'exp_avg_sq') }));
  return { step, settings, moments };
}

function readMetadata(headerBytes: Uint8Array): Pick<OptimizerState, 'step' | 'settings'> {
  // parseHeader has already checked that the header is a JSON object.
  const meta = (JSON.parse(new TextDecoder().decode(headerBytes)) as { __metadata__?: Record<string, string> }).__metadata__ ?? {};
  if (meta.format !== FORMAT || meta.version !== VERSION) {
    throw invalid(`this file is not Baton AdamW state version ${VERSION} (format ${meta.format}, version ${meta.version}).`, {
      format: meta.format,
      version: meta.version,
    });
  }
  const step = Number(meta.step);
  if (!Number.isInteger(step) || step < 0) throw invalid(`step is ${meta.step}, not a step count.`, { step: meta.step });
  let schedule: unknown;
  try {
    schedule = JSON.parse(meta.schedule ?? '');
  } catch {
    schedule = undefined;
  }
  if (typeof schedule !== 'object' || schedule === null) throw invalid(`schedule ${meta.schedule} is not a schedule.`, { schedule: meta.schedule });
  let settings: AdamWSettings;
  try {
    settings = resolveSettings({
      lr: Number(meta.lr),
      beta1: Number(meta.beta1),
      beta2: Number(meta.beta2),
      eps: Number(meta.eps),
      weightDecay: Number(meta.weight_decay),
      maxGradNorm: Number(meta.max_grad_norm),
      schedule: schedule as AdamWSettings['schedule'],
    });
  } catch (e) {
    throw new BatonError({ code: 'data/invalid', message: `Optimiser state: ${(e as Error).message}`, data: (e as BatonError).data, cause: e });
  }
  return { step, settings };
}
