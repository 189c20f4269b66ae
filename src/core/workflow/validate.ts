/**
 * Turns the three raw lists into a Workflow, or says exactly what is wrong with them.
 *
 * Lenient where the meaning is unambiguous: a model id may be written as an integer-valued string ("2",
 * as Python's int() in the reference accepts) or as "Model id 2" (the way the prompt names workers);
 * an access entry may be "all"/["all"] in any letter case, None or "none" (no access), a list written
 * inside quotes ("[0, 1]"), or, in positional mode, a bare index (one earlier step); a subtask may be
 * wrapped in a one-element list. Repeated indices are kept once.
 */
import { readPythonLiteral, type PyValue } from './python-literal.ts';
import { DEFAULT_MAX_STEPS, type Access, type ParseOptions, type ParseResult, type Step } from './types.ts';

export interface RawLists {
  model_id: PyValue[];
  subtasks: PyValue[];
  access_list: PyValue[];
}

class Invalid extends Error {}

export function validateLists(lists: RawLists, opts: ParseOptions): ParseResult {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const mode = opts.access ?? 'positional';
  const n = lists.model_id.length;
  if (n === 0 && lists.subtasks.length === 0 && lists.access_list.length === 0) {
    if (opts.recursion) return { ok: true, keep: true, workflow: { steps: [] } };
    return { ok: false, error: 'the lists are empty: write at least one step (model_id, subtasks and access_list each need one entry per step)' };
  }
  for (const name of ['subtasks', 'access_list'] as const) {
    const m = lists[name].length;
    if (m !== n) {
      return { ok: false, error: `${name} has ${m} ${entries(m)} but model_id has ${n}: the three lists must have equal length, one entry per step` };
    }
  }
  if (n > maxSteps) {
    return { ok: false, error: `too many steps: ${n}, but at most ${maxSteps} ${maxSteps === 1 ? 'is' : 'are'} allowed; merge or drop steps` };
  }
  try {
    const steps: Step[] = lists.model_id.map((id, i) => ({
      worker: workerId(id, i, opts.workers),
      subtask: subtask(lists.subtasks[i], i),
      access: access(lists.access_list[i], i, mode),
    }));
    return { ok: true, workflow: { steps } };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}

function entries(k: number): string {
  return k === 1 ? 'entry' : 'entries';
}

function show(v: PyValue): string {
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** An integer, or a string holding one; with `named`, also "Model 2" / "Model id 2". */
function asInteger(v: PyValue, named = false): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = (named ? /^\s*(?:model(?:[ _-]?id)?\s*)?(-?\d+)\s*$/i : /^\s*(-?\d+)\s*$/).exec(v);
  return m ? Number(m[1]) : undefined;
}

function workerId(v: PyValue, i: number, workers: number | undefined): number {
  const id = asInteger(v, true);
  const range =
    workers === undefined
      ? 'model ids are integers from 0'
      : `model ids are integers from 0 to ${workers - 1} (the pool has ${workers} ${workers === 1 ? 'model' : 'models'})`;
  if (id === undefined) throw new Invalid(`model_id[${i}] is ${show(v)}, not an integer: ${range}`);
  if (id < 0 || (workers !== undefined && id >= workers)) throw new Invalid(`model_id[${i}] is ${id}, out of range: ${range}`);
  return id;
}

function subtask(v: PyValue, i: number): string {
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') v = v[0]; // ["Solve it"]
  if (typeof v !== 'string') throw new Invalid(`subtasks[${i}] is ${show(v)}, but each subtask must be a string of instructions`);
  if (v.trim() === '') throw new Invalid(`subtasks[${i}] is empty: say what the model should do in this step`);
  return v;
}

const BINARY_HINT = 'binary access mode allows only "all" (every earlier step) or [] (only the question)';

function isAll(v: PyValue): boolean {
  return (typeof v === 'string' && v.trim().toLowerCase() === 'all') || (Array.isArray(v) && v.length === 1 && isAll(v[0]));
}

function access(v: PyValue, i: number, mode: ParseOptions['access']): Access {
  if (typeof v === 'string' && /^\s*\[[^]*\]\s*$/.test(v)) {
    const inner = readPythonLiteral(v.trim()); // a list written inside quotes: "[0, 1]"
    if (inner.ok) v = inner.value;
  }
  if (isAll(v)) return 'all';
  if (v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && /^\s*(none)?\s*$/i.test(v))) return [];
  if (mode === 'binary') throw new Invalid(`access_list[${i}] is ${show(v)}, but ${BINARY_HINT}`);
  const items = Array.isArray(v) ? v : [v];
  const seen: number[] = [];
  for (const item of items) {
    const k = asInteger(item);
    if (k === undefined) {
      throw new Invalid(`access_list[${i}] contains ${show(item)}, but an access entry is "all", [] or a list of earlier step indices`);
    }
    if (k < 0 || k >= i) {
      const kind = k < 0 ? 'not a step index' : k === i ? 'a self reference' : 'a forward reference';
      const allowed = i === 0 ? 'the first step can only have [] or "all"' : `step ${i} may only see steps 0 to ${i - 1}`;
      throw new Invalid(`access_list[${i}] refers to step ${k}, ${kind}: ${allowed}`);
    }
    if (!seen.includes(k)) seen.push(k);
  }
  return seen;
}
