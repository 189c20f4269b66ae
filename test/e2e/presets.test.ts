/**
 * Presets on the Settings page: save the pool, the Conductor and the limits under a name, switch back to one,
 * export it as a file with no keys, and a bad file refused with what is wrong.
 */
import { afterEach, expect, test } from 'vitest';
import { openApp, POLL, saveKey, setPool, type AppPage } from './app-page.ts';

let app: AppPage | undefined;
afterEach(async () => {
  await app?.session.close();
  app = undefined;
});

const SECRET = 'sk-preset-never-exported-42';

test('a preset switches pool and limits back at once, exports without keys, and a bad file is refused', async () => {
  app = await openApp({ hash: '#/settings' });
  const { page } = app;
  const settings = () => page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
  const presets = page.getByTestId('presets');

  // The demo pool, no day limit: saved as "demo".
  await presets.getByLabel('Preset name').fill('demo');
  await presets.getByRole('button', { name: 'Save what is set now' }).click();

  // One OpenAI worker with a key, a day limit of $3: saved as "openai".
  await setPool(app, [{ preset: 'GPT-5' }]);
  await saveKey(page, 'openai@https://api.openai.com', SECRET);
  await settings();
  await page.getByLabel('Per day ($)').fill('3');
  await page.getByLabel('Per day ($)').press('Tab');
  await presets.getByLabel('Preset name').fill('openai');
  await presets.getByRole('button', { name: 'Save what is set now' }).click();
  expect(await presets.getByTestId('preset').allInnerTexts()).toEqual([
    expect.stringMatching(/^demo\s+4 workers/),
    expect.stringMatching(/^openai\s+1 worker/),
  ]);

  await presets.getByRole('group', { name: 'Preset demo' }).getByRole('button', { name: 'Use' }).click();
  await expect.poll(() => page.getByLabel('Per day ($)').inputValue(), POLL).toBe('');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Workers' }).click();
  await expect.poll(() => page.getByTestId('worker-row').count(), POLL).toBe(4);

  await settings();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    presets.getByRole('group', { name: 'Preset openai' }).getByRole('button', { name: 'Export' }).click(),
  ]);
  let text = '';
  for await (const chunk of await download.createReadStream()) text += chunk;
  expect(JSON.parse(text)).toMatchObject({ kind: 'baton-preset', name: 'openai', limits: { dayUsd: 3 }, pool: [{ provider: 'openai' }] });
  expect(text).not.toContain(SECRET);

  const file = presets.locator('input[type="file"]');
  await file.setInputFiles({
    name: 'shared.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text.replace('"name": "openai"', '"name": "from a friend"')),
  });
  await expect.poll(() => presets.getByTestId('preset').count(), POLL).toBe(3);
  const withKey = text.replace('"provider": "openai"', '"provider": "openai", "apiKey": "sk-oops"');
  await file.setInputFiles({ name: 'leaky.json', mimeType: 'application/json', buffer: Buffer.from(withKey) });
  expect(await presets.getByRole('alert').innerText()).toMatch(/^leaky\.json: Not a usable Baton preset: pool\[0\]\.apiKey looks like a key/);
  expect(await presets.getByTestId('preset').count()).toBe(3);
});
