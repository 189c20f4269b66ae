/**
 * ZeroEval's own verdict on a response, restated from reading its evaluation scripts (src/evaluation/
 * {math_eval,crux_eval,eval_utils}.py at the recorded commit), to measure Baton's graders against it. Its rule:
 * the answer is the `answer` field of the first complete `{...}` in the response that parses as JSON once its
 * line breaks are removed; failing that, the first `"answer": "..."` (or unquoted `answer: value`) written
 * in it; failing that, for Llama-3.1 models only, a `\boxed{word}` in the response's last 30 characters.
 * GSM8K and MATH: right when the first number of the answer equals the first number of the gold, after `$`
 * and `,` are dropped and a fraction `a/b` is divided out. CRUXEval: right when the answer, stripped of quotes
 * at both ends and with line breaks written `\n`, is the gold stripped the same way, character for character.
 */

/** How Python's str() shows a JSON value: strings bare at the top, quoted inside lists and objects. */
function pythonStr(value: unknown, nested = false): string {
  if (typeof value === 'string') return nested ? `'${value}'` : value;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return `[${value.map((v) => pythonStr(v, true)).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `'${k}': ${pythonStr(v, true)}`)
      .join(', ')}}`;
  return String(value);
}

/** The first brace-balanced `{...}` of `text` parsed (line breaks removed), or null when that one does not parse. */
function firstJsonObject(text: string): Record<string, unknown> | null {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (text[i] === '}' && depth > 0 && --depth === 0) {
      try {
        const value: unknown = JSON.parse(text.slice(start, i + 1).replace(/\n/g, ''));
        return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** ZeroEval's reading of the answer in `response` by `model`, or null (its "no answer"). */
export function zeroEvalAnswer(response: string, model: string): string | null {
  const json = firstJsonObject(response);
  if (json && 'answer' in json) return pythonStr(json.answer);
  const written =
    /"answer"\s*:\s*"([^"]*?)"/.exec(response) ??
    /"answer"\s*:\s*"(.*?)"/s.exec(response) ??
    /"answer"\s*:\s*([^,\s]*)/.exec(response) ??
    /answer\s*:\s*([^,\s]*)/.exec(response);
  if (written) return written[1];
  if (model.includes('Llama-3.1') && response.slice(-30).includes('boxed')) return /\\boxed\{(\w+)\}/.exec(response)?.[1] ?? null;
  return null;
}

function sanitizeNumber(answer: string): string {
  const s = answer.replace(/\$/g, '').trim().replace(/,/g, '');
  const fraction = /^(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)$/.exec(s);
  return fraction && Number(fraction[2]) !== 0 ? String(Number(fraction[1]) / Number(fraction[2])) : s;
}

const firstNumber = (s: string) => /-?\d+(\.\d+)?/.exec(s)?.[0];

/** ZeroEval's verdict on a GSM8K or MATH answer (`gold` as its file has it, e.g. `# 18`). */
export function zeroEvalNumberVerdict(answer: string | null, gold: string): boolean {
  if (answer === null) return false;
  const a = firstNumber(sanitizeNumber(answer));
  const b = firstNumber(sanitizeNumber(gold.replace(/#/g, '').trim()));
  return a !== undefined && b !== undefined && Number(a) === Number(b);
}

/** ZeroEval's verdict on a CRUXEval answer. */
export function zeroEvalCruxVerdict(answer: string | null, gold: string): boolean {
  if (answer === null) return false;
  const strip = (s: string) => s.replace(/^['"]+|['"]+$/g, '');
  return strip(answer).replace(/\n/g, '\\n') === strip(gold);
}
