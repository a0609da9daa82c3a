/**
 * `npm run eval -- --chrome` on this machine's Chromium (playwright-core): the page has the
 * Prompt API's `LanguageModel`, but no model can run here, so the eval must say so plainly
 * and exit non-zero before any scenario, instead of scoring errors. Chrome's real model was not
 * run here.
 */
import { runCli } from '../../eval/cli';
import { findChromium } from '../support/chromium';

jest.setTimeout(120000);

test('--chrome without a usable built-in model: exit 1, nothing evaluated, and what to use instead', async () => {
  const browser = findChromium();
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli({
    argv: ['--chrome', '--runs', '1'],
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  expect(status).toBe(1);
  expect(out).toEqual([]);
  const said = err.join('\n');
  expect(said).toContain('launching the browser to look for its built-in model (LanguageModel)');
  expect(said).toMatch(
    new RegExp(
      `Chrome's built-in model is not available in ${browser} \\([\\d.]+\\)|${browser} \\([\\d.]+\\) has no Prompt API`,
    ),
  );
  expect(said).toContain('Nothing was evaluated.');
});
