/**
 * The bench reads NPC profiles: `npm run bench -- --profile <file>` plays the profile's own
 * player lines on its own set-up and prints one row of exact counts (turns, model calls, Gemma 3
 * prompt tokens) beside the cost model's times. Counts only here: times belong to the bench.
 */
import { join } from 'node:path';
import { benchProfiles } from '../../bench/profiles';

jest.setTimeout(60000);

test("Hilde's profile: 6 player lines, 8 model calls (her two tools' results are read back), her prompt counted", async () => {
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((text: unknown) => void printed.push(String(text)));
  try {
    await benchProfiles(join(__dirname, '../../demo/profiles/hilde.npc-profile.json'));
  } finally {
    log.mockRestore();
  }
  const row = printed.find((line) => line.startsWith('| Hilde |'));
  expect(row).toBeDefined();
  const cells = (row as string).split('|').map((cell) => cell.trim());
  expect(cells.slice(2, 4)).toEqual(['6', '8']);
  const [mean, max] = cells[4].split('/').map((value) => Number(value.trim()));
  // Her persona alone (stages, sample lines, knowledge) is over 300 tokens; each call sends it.
  expect(mean).toBeGreaterThan(300);
  expect(max).toBeGreaterThanOrEqual(mean);
});
