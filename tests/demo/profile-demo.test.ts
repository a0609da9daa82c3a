/**
 * Profiles on the command line, as a designer runs them: `npm run demo -- --profile` plays the
 * profile's own NPC (its tools, its world, its voice; never the tavern's), a bad profile is
 * refused with the field named, and `npm run persona-test` plays the profile a test names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

jest.setTimeout(120000);
const ROOT = resolve(__dirname, '../..');

function run(script: string, args: string[]) {
  return spawnSync(process.execPath, ['scripts/run-ts.mjs', script, ...args], { cwd: ROOT, encoding: 'utf8' });
}

test('--profile: the blacksmith plays with her own tools and world, in her own voice', () => {
  const { status, stdout } = run('demo/tavern.ts', ['--fast', '--profile', 'demo/profiles/hilde.npc-profile.json']);
  expect(status).toBe(0);
  expect(stdout).toContain('Forge is hot. Buy something or move along.');
  expect(stdout).toContain('tool: show_wares({})');
  expect(stdout).toContain('tool: forge_item({"item":"horseshoe"})');
  expect(stdout).toContain('world: smithy.order null → "horseshoe"');
  expect(stdout).toContain("Hilde: Weather doesn't shoe horses.");
  expect(stdout).not.toMatch(/Speak up, love|check_menu|take_order|Crooked Lantern|gold/);
});

test('--profile: the guard answers his hand-answered tool through the demo; a bad profile is refused with the field named', () => {
  const guard = run('demo/tavern.ts', ['--fast', '--profile', 'demo/profiles/guard.npc-profile.json']);
  expect(guard.status).toBe(0);
  expect(guard.stdout).toContain('tool: open_gate({})');
  expect(guard.stdout).toContain('world: gate.open false → true');
  const dir = mkdtempSync(join(tmpdir(), 'oam-profile-'));
  const bad = join(dir, 'bad.npc-profile.json');
  writeFileSync(bad, JSON.stringify({ persona: { name: 'X' }, tools: [{ name: 'a', description: 'b', answer: {} }] }));
  const refused = run('demo/tavern.ts', ['--fast', '--profile', bad]);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain('profile.tools[0] (a): answer needs a result, an error, set or cases');
  const missing = run('demo/tavern.ts', ['--fast', '--profile', join(dir, 'nope.json')]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain('cannot read the NPC profile');
});

test('persona-test plays the profile the test names: the tavern gives the counts it gave with --tavern, the blacksmith calls show_wares', () => {
  const mira = run('demo/persona-test.ts', ['demo/profiles/mira.persona-test.json']);
  expect(mira.stdout).toContain("Mira on the tavern's keyword stand-in");
  expect(mira.stdout).toContain('27 passed, 0 failed');
  expect(mira.status).toBe(0);
  const tavern = run('demo/persona-test.ts', ['samples/tavern/mira.persona-test.json', '--tavern']);
  expect(tavern.stdout).toContain('27 passed, 0 failed');
  const hilde = run('demo/persona-test.ts', ['demo/profiles/hilde.persona-test.json']);
  expect(hilde.stdout).toContain('pass  calls show_wares');
  expect(hilde.stdout).toContain('25 passed, 0 failed');
  expect(hilde.stdout).not.toContain('Speak up, love');
  expect(hilde.status).toBe(0);
  // A test naming a profile that is not there, or naming a profile and a persona, is a bad file (2).
  const dir = mkdtempSync(join(tmpdir(), 'oam-profile-test-'));
  const both = join(dir, 'both.persona-test.json');
  writeFileSync(
    both,
    JSON.stringify({
      profile: join(ROOT, 'demo/profiles/hilde.npc-profile.json'),
      persona: { name: 'X' },
      turns: [{ say: 'hi' }],
    }),
  );
  const refused = run('demo/persona-test.ts', [both]);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain('the test names a "profile" and a "persona"');
});
