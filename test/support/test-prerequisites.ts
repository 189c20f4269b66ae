/**
 * What `npm test` needs beyond node_modules (run as its `pretest`): Chromium for the browser tests and,
 * on Linux, SwiftShader's Vulkan driver for the engine tests on Dawn; Debian's chromium package ships
 * both. Where one is missing and this runs as root with apt-get (a fresh Debian container, CI), it
 * installs that package; anywhere else it names what is missing and the command to run, and fails.
 * python3 (the exported Python reward module's tests) is installed the same way where it is missing,
 * but is not required: without it those tests skip, saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SWIFTSHADER_ICDS } from '../../src/node/models/webgpu.ts';
import { CHROMIUM_PATH } from './browser.ts';

function missing(): string[] {
  const out: string[] = [];
  if (!existsSync(CHROMIUM_PATH)) out.push(`Chromium (${CHROMIUM_PATH})`);
  if (process.platform === 'linux' && !process.env.VK_ICD_FILENAMES && !SWIFTSHADER_ICDS.some((p) => existsSync(p))) {
    out.push(`SwiftShader's Vulkan driver (${SWIFTSHADER_ICDS[0]})`);
  }
  return out;
}

const hasAptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

/** apt-get's errors reach the terminal; its progress does not. */
const aptGet = (args: string[]) =>
  spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;

/** The tests that run the Python reward module `baton export` writes (and a Python-written adapter) need it; they skip without it. */
const hasPython = () => spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

let lacking = missing();
// python3, not python3-minimal: the reward module's urllib needs http.client and json, which -minimal lacks.
const packages = [...(lacking.length > 0 ? ['chromium'] : []), ...(hasPython() ? [] : ['python3'])];
if (packages.length > 0 && process.getuid?.() === 0 && hasAptGet) {
  if (lacking.length > 0) console.error(`npm test: installing Debian's chromium package for ${lacking.join(' and ')}.`);
  if (!hasPython()) console.error("npm test: installing Debian's python3 package for the tests that run the exported Python reward module.");
  if (aptGet(['update', '-qq']) && aptGet(['install', '-y', '-qq', ...packages])) lacking = missing();
}
if (lacking.length > 0) {
  const how = hasAptGet
    ? "Debian's chromium package has them: sudo apt-get install -y chromium"
    : "Set CHROMIUM_PATH to a Chromium or Chrome executable (and, on Linux without a GPU, VK_ICD_FILENAMES to SwiftShader's vk_swiftshader_icd.json).";
  console.error(`npm test needs ${lacking.join(' and ')}, for the browser and engine tests.\n${how}`);
  process.exit(1);
}
if (!hasPython()) {
  console.error('npm test: no python3, so the tests that run the exported Python reward module are skipped (sudo apt-get install -y python3).');
}
