/**
 * A PEFT adapter written by an independent writer: a Python script (standard library only, none of
 * Baton's code) writes an adapter in the layout PEFT's save_pretrained produces (adapter_config.json
 * with PEFT's own fields, safetensors with "__metadata__": {"format": "pt"}, 8-byte aligned header,
 * names base_model.model.<module>.lora_A/B.weight, A [r, in], B [out, r], one module in BF16 as bf16
 * training saves it) for a model directory with F32 weights and, separately, merges
 * W + (lora_alpha / r) B A into a copy of that model itself. Used by
 * test/unit/engine/model/lora.python-writer.test.ts and test/engine/node/commands/logprobs.python-adapter.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;

/** The adapter's shape: what a test expects to read back. */
export const PYTHON_ADAPTER = { r: 4, alpha: 8, targets: ['q_proj', 'v_proj', 'down_proj'], baseModel: 'tiny-base' };

const WRITER = `
import json, math, os, shutil, struct, sys
model_dir, adapter_dir, merged_dir = sys.argv[1:4]
R, ALPHA = ${PYTHON_ADAPTER.r}, ${PYTHON_ADAPTER.alpha}
TARGETS = ${JSON.stringify(PYTHON_ADAPTER.targets)}

def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, info in header.items():
        assert info["dtype"] == "F32", info["dtype"]
        a, b = info["data_offsets"]
        out[name] = (info["shape"], list(struct.unpack("<%df" % ((b - a) // 4), raw[8 + n + a:8 + n + b])))
    return out

def bf16(x):
    # round to nearest even, as torch does when it casts float32 to bfloat16
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return bits, struct.unpack("<f", struct.pack("<I", bits << 16))[0]

def write_safetensors(path, tensors):
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        dtype, shape, values = tensors[name]
        blob = struct.pack("<%dH" % len(values), *values) if dtype == "BF16" else struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))

base = read_safetensors(os.path.join(model_dir, "model.safetensors"))
adapter, merged = {}, dict(base)
for name, (shape, w) in base.items():
    module = name[: -len(".weight")]
    if not name.endswith(".weight") or module.split(".")[-1] not in TARGETS:
        continue
    out_f, in_f = shape
    A = [[math.sin(0.37 * (i * in_f + j) + len(module)) * 0.3 for j in range(in_f)] for i in range(R)]
    B = [[math.cos(0.91 * (i * R + j) + len(module)) * 0.2 for j in range(R)] for i in range(out_f)]
    in_bf16 = module.endswith("layers.0.mlp.down_proj")
    if in_bf16:
        A = [[bf16(v)[1] for v in row] for row in A]
        B = [[bf16(v)[1] for v in row] for row in B]
    pack = (lambda rows: ("BF16", [bf16(v)[0] for row in rows for v in row])) if in_bf16 else (lambda rows: ("F32", [v for row in rows for v in row]))
    dA, vA = pack(A)
    dB, vB = pack(B)
    adapter["base_model.model." + module + ".lora_A.weight"] = (dA, [R, in_f], vA)
    adapter["base_model.model." + module + ".lora_B.weight"] = (dB, [out_f, R], vB)
    scale = ALPHA / R
    merged[name] = (shape, [w[o * in_f + i] + scale * sum(B[o][k] * A[k][i] for k in range(R)) for o in range(out_f) for i in range(in_f)])

os.makedirs(adapter_dir)
write_safetensors(os.path.join(adapter_dir, "adapter_model.safetensors"), adapter)
json.dump({
    "alpha_pattern": {}, "auto_mapping": None, "base_model_name_or_path": "${PYTHON_ADAPTER.baseModel}", "bias": "none",
    "fan_in_fan_out": False, "inference_mode": True, "init_lora_weights": True, "layer_replication": None,
    "layers_pattern": None, "layers_to_transform": None, "loftq_config": {}, "lora_alpha": ALPHA,
    "lora_dropout": 0.05, "megatron_config": None, "megatron_core": "megatron.core", "modules_to_save": None,
    "peft_type": "LORA", "r": R, "rank_pattern": {}, "revision": None, "target_modules": list(reversed(TARGETS)),
    "task_type": "CAUSAL_LM", "use_dora": False, "use_rslora": False,
}, open(os.path.join(adapter_dir, "adapter_config.json"), "w"), indent=2)
os.makedirs(merged_dir)
write_safetensors(os.path.join(merged_dir, "model.safetensors"), {n: ("F32", s, v) for n, (s, v) in merged.items()})
for f in os.listdir(model_dir):  # config and tokenizer files as they are
    if not f.endswith(".safetensors"):
        shutil.copy(os.path.join(model_dir, f), merged_dir)
print(json.dumps({"modules": len(adapter) // 2}))
`;

/** Runs the writer in `dir` on `dir/model`: the adapter in `dir/adapter`, the merged model in `dir/merged`. Returns the modules it adapted. */
export async function writeAdapterWithPython(dir: string): Promise<number> {
  await writeFile(join(dir, 'peft_writer.py'), WRITER);
  const python = spawnSync('python3', ['peft_writer.py', 'model', 'adapter', 'merged'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  if (python.status !== 0) throw new Error(`the Python adapter writer failed: ${python.stderr}`);
  return JSON.parse(python.stdout).modules;
}
