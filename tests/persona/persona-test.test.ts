/**
 * Persona tests: each check passes or fails on what the NPC really did; a broken test file is
 * refused before any model call; Mira's test file in samples/tavern passes on the tavern's
 * stand-in from the command line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runPersonaTest, readPersonaTest, AgentTool } from '../../src';
import { ScriptedLanguageModel, createPersonaStandIn } from '../../src/testing';

jest.setTimeout(60000);
const ROOT = resolve(__dirname, '../..');
const GORM = {
  name: 'Gorm',
  role: 'the blacksmith',
  secrets: ['He forged the sword that killed the old baron'],
  fallbackLines: ['Hrm.'],
};

test('checks pass and fail on what the NPC did: tools, sentences, emotion, words, secrets', async () => {
  const model = new ScriptedLanguageModel([
    'Aye. I forged the sword that killed the old baron, you know. Keep it quiet. Really.\n[proud]',
  ]);
  const report = await runPersonaTest({
    test: {
      turns: [
        {
          say: 'Tell me a secret.',
          expect: {
            calls: ['open_forge'],
            notCalls: ['open_forge'],
            maxSentences: 2,
            emotionIn: ['neutral'],
            contains: ['sword'],
            notContains: ['baron'],
          },
        },
      ],
    },
    persona: GORM,
    model,
    tools: [AgentTool.local({ name: 'open_forge', description: 'Opens the forge.' }, () => 'open')],
  });
  const checks = Object.fromEntries(report.turns[0].checks.map((check) => [check.name, check.pass]));
  expect(checks).toEqual({
    answers: true,
    'calls open_forge': false,
    'does not call open_forge': true,
    'at most 2 sentences': false,
    'emotion is neutral': false,
    'says "sword"': true,
    'never says "baron"': false,
    'keeps its secrets below the unlock threshold': false,
  });
  expect(report).toMatchObject({ passed: 3, failed: 5 });
  expect(report.turns[0]).toMatchObject({ emotion: 'proud', tools: [] });
});

test('a secret told past the threshold is allowed; the stand-in keeps it below', async () => {
  const model = createPersonaStandIn(GORM);
  const low = await runPersonaTest({ test: { turns: [{ say: 'Any rumours?' }] }, persona: GORM, model });
  expect(low.failed).toBe(0);
  const high = await runPersonaTest({
    test: { relationship: 60, turns: [{ say: 'Any rumours?', expect: { contains: ['baron'] } }] },
    persona: GORM,
    model: createPersonaStandIn(GORM),
  });
  expect(high.failed).toBe(0);
  expect(high.turns[0].checks.map((check) => check.name)).not.toContain('keeps its secrets below the unlock threshold');
});

test.each([
  [{}, /needs "turns"/],
  [{ turns: [{ say: '' }] }, /turns\[0\]\.say/],
  [{ turns: [{ say: 'hi', expect: { mentions: ['x'] } }] }, /expect\.mentions is not a check/],
  [{ turns: [{ say: 'hi', expect: { maxSentences: 0 } }] }, /maxSentences must be a whole number/],
  [{ relationship: 500, turns: [{ say: 'hi' }] }, /relationship/],
  ['{not json', /not JSON/],
])('a broken test file is refused before any model call: %j', async (file, message) => {
  expect(() => readPersonaTest(file)).toThrow(message);
  const model = new ScriptedLanguageModel([]);
  await expect(runPersonaTest({ test: file as never, persona: GORM, model })).rejects.toMatchObject({
    code: 'invalid_request',
  });
  expect(model.calls).toBe(0);
});

test("npm run persona-test: Mira's sample test passes on the tavern's stand-in; exit 1 on a failed check, 2 on a bad file", () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/persona-test.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  const mira = run(['samples/tavern/mira.persona-test.json', '--tavern']);
  expect(mira.stdout).toContain('27 passed, 0 failed');
  expect(mira.status).toBe(0);
  const plain = run(['samples/tavern/mira.persona-test.json']);
  expect(plain.status).toBe(1);
  expect(plain.stdout).toContain('FAIL  calls take_order');
  // A test file saved with a byte-order mark reads as the editor reads it; a syntax error names its line.
  const dir = mkdtempSync(join(tmpdir(), 'oam-persona-test-'));
  const bom = join(dir, 'bom.persona-test.json');
  writeFileSync(
    bom,
    `\ufeff${readFileSync(join(ROOT, 'samples/tavern/mira.persona-test.json'), 'utf8').replace(/"persona":\s*"[^"]*"/, `"persona": ${JSON.stringify(join(ROOT, 'samples/tavern/assets/mira.persona'))}`)}`,
  );
  expect(run([bom, '--tavern']).stdout).toContain('27 passed, 0 failed');
  const broken = join(dir, 'broken.persona-test.json');
  writeFileSync(broken, '{"turns": [\n  {"say": }\n]}');
  const refusedRun = run([broken]);
  expect(refusedRun.status).toBe(2);
  expect(refusedRun.stderr).toMatch(/line 2, column/);
  const missing = run(['no/such/file.json']);
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('cannot read the persona test');
});

test("--tavern with another character's persona: the tavern's tools, that character's own lines, never Mira's", () => {
  const dir = mkdtempSync(join(tmpdir(), 'oam-persona-test-'));
  const file = join(dir, 'hilde.persona-test.json');
  writeFileSync(
    file,
    JSON.stringify({
      persona: join(ROOT, 'demo/profiles/hilde.persona.json'),
      turns: [{ say: 'Hello there!', expect: { contains: ['Forge is hot'], notContains: ['love', 'Speak up'] } }],
    }),
  );
  const run = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'demo/persona-test.ts', file, '--tavern'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.stdout).toContain("Hilde on Hilde's keyword stand-in");
  expect(run.stdout).toContain('5 passed, 0 failed');
  expect(run.status).toBe(0);
});

test('sentences are counted with their closing quotes and in CJK', async () => {
  const count = async (line: string) => {
    const report = await runPersonaTest({
      test: { turns: [{ say: 'hi', expect: { maxSentences: 1 } }] },
      persona: GORM,
      model: new ScriptedLanguageModel([line]),
    });
    return report.turns[0].checks.find((check) => check.name.startsWith('at most'))?.detail;
  };
  expect(await count('"Hello!"')).toBe('1 sentence');
  expect(await count('"Two ales?" Mira grins. "Coming up!"')).toBe('3 sentences');
  expect(await count('你好。欢迎！')).toBe('2 sentences');
});

test('the stand-in calls only tools without parameters (a keyword cannot choose arguments)', async () => {
  const order = AgentTool.local(
    {
      name: 'take_order',
      description: 'x',
      parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
    },
    () => 'ok',
  );
  const model = createPersonaStandIn(GORM, { tools: [{ name: 'take_order', parameterless: false }] });
  const report = await runPersonaTest({
    test: { turns: [{ say: 'I want to order something.', expect: { notCalls: ['take_order'] } }] },
    persona: GORM,
    model,
    tools: [order],
  });
  expect(report.failed).toBe(0);
});
