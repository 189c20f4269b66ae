import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { initialWeight } from '../../../../src/engine/model/index.ts';

describe('initialWeight', () => {
  it("draws matrices from normal(0, std) as Hugging Face's initializer does, norms 1 and biases 0", () => {
    const w = initialWeight('model.layers.0.mlp.up_proj.weight', [256, 64], seededRandom(1), 0.02);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const std = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / w.length);
    expect(Math.abs(mean)).toBeLessThan(0.001);
    expect(std).toBeGreaterThan(0.0195);
    expect(std).toBeLessThan(0.0205);
    // A normal puts about 68% within one std, where a uniform of the same std puts 58%.
    expect(w.filter((v) => Math.abs(v) < 0.02).length / w.length).toBeCloseTo(0.683, 1);
    expect([...initialWeight('model.norm.weight', [8], seededRandom(1))]).toEqual(new Array(8).fill(1));
    expect([...initialWeight('model.layers.0.self_attn.q_proj.bias', [8], seededRandom(1))]).toEqual(new Array(8).fill(0));
  });

  it('gives the embedding and the LM head rows of about unit length, so the tied head starts with logits of unit spread', () => {
    for (const name of ['model.embed_tokens.weight', 'lm_head.weight']) {
      const w = initialWeight(name, [200, 64], seededRandom(2));
      const norms = Array.from({ length: 200 }, (_, r) => Math.hypot(...w.subarray(r * 64, (r + 1) * 64)));
      expect(norms.reduce((a, b) => a + b) / 200).toBeCloseTo(1, 1);
    }
  });

  it('gives the same weights for the same seed', () => {
    const name = 'model.embed_tokens.weight';
    expect(initialWeight(name, [10, 4], seededRandom(7))).toEqual(initialWeight(name, [10, 4], seededRandom(7)));
    expect(initialWeight(name, [10, 4], seededRandom(7))).not.toEqual(initialWeight(name, [10, 4], seededRandom(8)));
  });
});
