// The memory check of GpuTrainer.create: a run that does not fit is refused before anything is
// allocated (no buffer made, no adapter put on the model), and a trainer refuses micro-batches that
// pack into more rows than the ones it was checked for (a shared prompt's rows counted once).
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import { GpuTrainer } from '../../../src/engine/train/index.ts';
import { useTestDevice } from '../../support/webgpu.ts';
import { adapterPair, GROUPED, SEQUENCES, tinyPair } from './fixtures.ts';

describe('GpuTrainer memory check', () => {
  const device = useTestDevice();

  it('refuses a run above the budget before allocating anything', async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const before = device().memory.current;
      const lora = adapterPair(pair.ref, 1).gpu;
      const error = await GpuTrainer.create(pair.gpu, {
        wrt: 'lora',
        lora,
        optimizer: { lr: 1e-3 },
        limits: { microBatchSequences: 4, maxSequenceLength: 64, budgetBytes: 50_000 },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BatonError);
      expect(error).toMatchObject({ code: 'engine/out-of-memory', message: expect.stringMatching(/above the budget of 48.8 KiB/) });
      expect(device().memory.current).toBe(before);
      expect(pair.gpu.hasLora).toBe(false);
    } finally {
      await pair.cleanup();
    }
  });

  it('refuses a micro-batch beyond the limits it was checked for', async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const lora = adapterPair(pair.ref, 1).gpu;
      // 2 sequences of 7 tokens: 12 rows. SEQUENCES, no prompt shared: 5 + 3 + 6 rows.
      const trainer = await GpuTrainer.create(pair.gpu, {
        wrt: 'lora',
        lora,
        optimizer: { lr: 1e-3 },
        limits: { microBatchSequences: 2, maxSequenceLength: 7 },
      });
      await expect(trainer.forward(SEQUENCES, 1)).rejects.toThrow(
        /3 sequences of up to 7 tokens packs into 14 rows, beyond the 12 rows .*\(2 sequences of up to 7 tokens per micro-batch\)/,
      );
      await expect(trainer.forward(SEQUENCES.slice(0, 2), 1)).resolves.toBeDefined();
      trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });

  it("counts a shared prompt's rows once", async () => {
    const pair = await tinyPair(device(), 'qwen3', 'f32');
    try {
      const lora = adapterPair(pair.ref, 1).gpu;
      // Groups of 3 completions of up to 3 tokens, 7 tokens in all: 3 prompt rows and 3 x 3 completion rows.
      const limits = { microBatchSequences: 3, maxSequenceLength: 7, maxCompletionLength: 3 };
      const trainer = await GpuTrainer.create(pair.gpu, { wrt: 'lora', lora, optimizer: { lr: 1e-3 }, limits });
      // GROUPED: 4 sequences, but 3 + (3 + 1 + 2) rows for the shared prompt and 1 + 2 for the other.
      await expect(trainer.forward(GROUPED, 1)).resolves.toBeDefined();
      await expect(trainer.forward(SEQUENCES, 1)).rejects.toThrow(/packs into 14 rows, beyond the 12 rows/);
      trainer.destroy();
    } finally {
      await pair.cleanup();
    }
  });
});
