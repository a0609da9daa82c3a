import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  PERSONA_TEMPLATE,
  PERSONA_SCHEMA_URL,
  hasPersonaMarker,
  personaTemplateText,
  readPersonaFile,
} from '../../extension/persona/persona-file';
import { checkPersonaAsset, createPersonaHandler } from '../../extension/asset-db/persona-handler';
import type { PersonaHandlerDeps } from '../../extension/asset-db/persona-handler';
import { methods } from '../../extension/asset-db/index';
import { translatorFor } from '../../extension/persona/i18n';
import { parsePersona, PERSONA_FIELDS } from '../../src/game/persona';

const en = require('../../i18n/en.js');

const MIRA = JSON.stringify({ name: 'Mira', role: 'innkeeper', goals: ['Keep guests happy'] });

describe('readPersonaFile', () => {
  it('accepts a valid persona', () => {
    const report = readPersonaFile(MIRA);
    expect(report).toMatchObject({ status: 'ok', fatal: false, problems: [] });
    expect(report.persona).toEqual({ name: 'Mira', role: 'innkeeper', goals: ['Keep guests happy'] });
  });

  it('accepts the $schema marker of a plain .json persona and leaves it out of the persona', () => {
    const report = readPersonaFile(JSON.stringify({ $schema: PERSONA_SCHEMA_URL, name: 'Mira' }));
    expect(report.status).toBe('ok');
    expect(report.persona).toEqual({ name: 'Mira' });
    expect(hasPersonaMarker(report.value)).toBe(true);
    expect(hasPersonaMarker({ $schema: '../../schemas/persona.schema.json', name: 'x' })).toBe(true);
    expect(hasPersonaMarker({ $schema: 'https://example.com/other.schema.json' })).toBe(false);
    expect(hasPersonaMarker({ name: 'x' })).toBe(false);
    expect(hasPersonaMarker([])).toBe(false);
  });

  it('rejects text that is not JSON, saying where', () => {
    const report = readPersonaFile('{\n  "name": "Mira",\n  "role": innkeeper\n}');
    expect(report.status).toBe('error');
    expect(report.fatal).toBe(true);
    expect(report.value).toBeUndefined();
    expect(report.summary).toMatch(/^persona is not JSON: .*line 3, column 11/);
    expect(report.problems).toEqual([{ field: 'persona', message: expect.stringContaining('line 3') }]);
  });

  it.each([
    ['empty text', ''],
    ['a JSON list', '["Mira"]'],
    ['a JSON string', '"Mira"'],
    ['null', 'null'],
  ])('rejects %s as fatal', (_label, text) => {
    const report = readPersonaFile(text);
    expect(report).toMatchObject({ status: 'error', fatal: true });
    expect(report.problems[0].field).toBe('persona');
  });

  it('reports a missing name as an error that still imports', () => {
    const report = readPersonaFile(JSON.stringify({ role: 'innkeeper' }));
    expect(report).toMatchObject({ status: 'error', fatal: false });
    expect(report.problems).toEqual([{ field: 'persona.name', message: 'is required' }]);
    expect(report.summary).toContain('persona.name: is required');
  });

  it('reports an empty name', () => {
    const report = readPersonaFile(JSON.stringify({ name: '   ' }));
    expect(report.status).toBe('error');
    expect(report.problems).toEqual([{ field: 'persona.name', message: 'must not be empty' }]);
  });

  it('names every field of the wrong type', () => {
    const report = readPersonaFile(
      JSON.stringify({ name: 'Mira', goals: 'be rich', maxSentences: 0, knowledge: ['a', 3], defaultEmotion: 'hapy' }),
    );
    expect(report.status).toBe('warning');
    expect(report.fatal).toBe(false);
    const fields = report.problems.map((problem) => problem.field).sort();
    expect(fields).toEqual(['persona.defaultEmotion', 'persona.goals', 'persona.knowledge[1]', 'persona.maxSentences']);
    expect(report.problems.find((problem) => problem.field === 'persona.goals')!.message).toBe(
      'must be a list; got "be rich"',
    );
    expect(report.problems.find((problem) => problem.field === 'persona.maxSentences')!.message).toBe(
      'must be at least 1; got 0',
    );
    expect(report.problems.find((problem) => problem.field === 'persona.defaultEmotion')!.message).toMatch(
      /^must be one of neutral, happy, .*; got "hapy"/,
    );
  });

  it('hints at the field an unknown key probably meant', () => {
    const report = readPersonaFile(JSON.stringify({ name: 'Mira', speaking_style: 'short' }));
    expect(report.status).toBe('warning');
    expect(report.problems).toEqual([
      { field: 'persona.speaking_style', message: 'is not a persona field; did you mean "speakingStyle"?' },
    ]);
  });
});

describe('the Create → Persona template', () => {
  it('is a valid persona with every field filled, in the schema order', () => {
    const report = readPersonaFile(personaTemplateText());
    expect(report.status).toBe('ok');
    expect(Object.keys(PERSONA_TEMPLATE)).toEqual(['$schema', ...PERSONA_FIELDS]);
    for (const field of ['goals', 'knowledge', 'secrets', 'fallbackLines']) {
      expect((PERSONA_TEMPLATE[field] as string[]).length).toBeGreaterThan(0);
    }
    expect(personaTemplateText().endsWith('}\n')).toBe(true);
    expect(parsePersona(personaTemplateText()).name).toBe('Greta');
  });
});

describe('the .persona asset handler', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oam-persona-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function deps(): PersonaHandlerDeps & { warnings: string[]; errors: string[] } {
    const warnings: string[] = [];
    const errors: string[] = [];
    return {
      warnings,
      errors,
      readText: (file) => fs.promises.readFile(file, 'utf8'),
      log: { warn: (message) => warnings.push(message), error: (message) => errors.push(message) },
      t: translatorFor(en),
    };
  }

  function personaFile(name: string, text: string): { source: string; userData: Record<string, unknown> } {
    const source = path.join(dir, name);
    fs.writeFileSync(source, text);
    return { source, userData: {} };
  }

  it('is registered by the asset-db script and extends the json handler', () => {
    const handler = methods.registerPersonaHandler();
    expect(handler).toMatchObject({ name: 'oam-persona', extends: 'json', assetType: 'cc.JsonAsset' });
    expect(typeof handler.importer.before).toBe('function');
    const [menu] = handler.createInfo.generateMenuInfo();
    expect(menu.label).toBe('i18n:oam-cocos.persona.create.label');
    expect(menu.fullFileName).toMatch(/\.persona$/);
    expect(readPersonaFile(menu.content).status).toBe('ok');
  });

  it('imports a valid persona quietly', async () => {
    const handlerDeps = deps();
    const asset = personaFile('mira.persona', MIRA);
    await expect(checkPersonaAsset(asset, handlerDeps)).resolves.toBe(true);
    expect(asset.userData).toEqual({ status: 'ok', problems: [] });
    expect(handlerDeps.warnings).toEqual([]);
    expect(handlerDeps.errors).toEqual([]);
  });

  it('fails the import of a file that is not JSON, with a clear message', async () => {
    const handlerDeps = deps();
    const asset = personaFile('broken.persona', '{ "name": "Mira", }');
    await expect(checkPersonaAsset(asset, handlerDeps)).resolves.toBe(false);
    expect(asset.userData.status).toBe('error');
    expect(handlerDeps.errors).toHaveLength(1);
    expect(handlerDeps.errors[0]).toMatch(
      /^oam-cocos: broken\.persona is not a persona: persona is not JSON: .*line 1, column 19/,
    );
  });

  it('imports a persona without a name but logs an error naming the field', async () => {
    const handlerDeps = deps();
    const asset = personaFile('nameless.persona', JSON.stringify({ role: 'guard' }));
    await expect(checkPersonaAsset(asset, handlerDeps)).resolves.toBe(true);
    expect(asset.userData).toEqual({ status: 'error', problems: [{ field: 'persona.name', message: 'is required' }] });
    expect(handlerDeps.errors).toEqual([
      'oam-cocos: nameless.persona cannot be used by an NPC yet: persona.name: is required',
    ]);
  });

  it('imports a persona with wrong fields and warns with their names', async () => {
    const handlerDeps = deps();
    const asset = personaFile('odd.persona', JSON.stringify({ name: 'Mira', goal: ['x'], maxSentences: 'two' }));
    await expect(checkPersonaAsset(asset, handlerDeps)).resolves.toBe(true);
    expect(asset.userData.status).toBe('warning');
    expect(handlerDeps.errors).toEqual([]);
    expect(handlerDeps.warnings).toHaveLength(1);
    expect(handlerDeps.warnings[0]).toContain('persona.goal: is not a persona field; did you mean "goals"?');
    expect(handlerDeps.warnings[0]).toContain('persona.maxSentences: must be a whole number; got "two"');
  });

  it('fails the import of a file it cannot read', async () => {
    const handlerDeps = deps();
    const asset = { source: path.join(dir, 'missing.persona'), userData: {} as Record<string, unknown> };
    await expect(checkPersonaAsset(asset, handlerDeps)).resolves.toBe(false);
    expect(handlerDeps.errors[0]).toMatch(/missing\.persona is not a persona: .*ENOENT/);
  });

  it('uses the injected dependencies through the handler object', async () => {
    const handlerDeps = deps();
    const handler = createPersonaHandler(handlerDeps);
    const asset = personaFile('x.persona', 'not json');
    await expect(handler.importer.before(asset)).resolves.toBe(false);
    expect(handlerDeps.errors).toHaveLength(1);
  });
});
