/**
 * The tavern sample as a Creator 3.8 project: the files Creator needs, a `.meta` with a unique
 * fixed uuid for every asset and folder, and a scene whose every reference resolves (objects in
 * the array, assets by uuid, custom components by their script's compressed uuid).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENING } from '../../demo/tavern/evening';
import { validatePersona } from '../../src';
import { TAVERN_WORLD } from '../../demo/tavern/tavern-world';
import {
  EXTENSION_ASSETS,
  REPO,
  SAMPLE,
  SAMPLE_ASSETS,
  UUID_FORM,
  declaredProperties,
  expandUuid,
  readMetas,
  readScene,
  references,
  walk,
  type SceneObject,
} from './project-files';

const readJson = (path: string) => JSON.parse(readFileSync(join(SAMPLE, path), 'utf8'));

const sampleMetas = readMetas(SAMPLE_ASSETS);
const extensionMetas = readMetas(EXTENSION_ASSETS);
const scene = readScene();
const sceneMeta = sampleMetas.find((meta) => meta.asset.endsWith('scenes/tavern.scene'))!;

/** Creator's built-in UI sprite frames the scene may use (engine editor/assets/default_ui metas). */
const INTERNAL_ASSETS: Record<string, string> = {
  '20835ba4-6145-4fbc-a58a-051ce700aa3e@f9941': 'db://internal/default_ui/default_btn_normal.png',
  '544e49d6-3f05-4fa8-9a9e-091f98fc2ce8@f9941': 'db://internal/default_ui/default_btn_pressed.png',
  '951249e0-9f16-456d-8b85-a6ca954da16b@f9941': 'db://internal/default_ui/default_btn_disabled.png',
  'bd1bcaba-bd7d-4a71-b143-997c882383e4@f9941': 'db://internal/default_ui/default_editbox_bg.png',
  '24a704da-2867-446d-8d1a-5e920c75e09d@f9941': 'db://internal/default_ui/default_progressbar.png',
  '9fd900dd-221b-4f89-8f2c-fba34243c835@f9941': 'db://internal/default_ui/default_progressbar_bg.png',
  '7d8f9b89-4fd1-4c9f-a3ab-38ec7cded7ca@f9941': 'db://internal/default_ui/default_sprite_splash.png',
};

/** Script metas (sample + extension) by compressed uuid, the way a scene names components. */
const scriptsByType = new Map<string, string>();
for (const meta of sampleMetas.concat(extensionMetas)) {
  if (meta.importer === 'typescript') scriptsByType.set(compress(meta.uuid), meta.asset);
}

function compress(uuid: string): string {
  // Only used to index; expandUuid (independent) is what the assertions rely on.
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const hex = uuid.replace(/-/g, '');
  let out = hex.slice(0, 5);
  for (let index = 5; index < 32; index += 3) {
    const value = parseInt(hex.slice(index, index + 3), 16);
    out += B64[value >> 6] + B64[value & 63];
  }
  return out;
}

const isCustomType = (type: string) => /^[0-9a-f]{5}[A-Za-z0-9+/]{18}$/.test(type);

describe('Creator project files', () => {
  test('package.json names a Creator 3.8 project with a uuid', () => {
    const pkg = readJson('package.json');
    expect(pkg.name).toBe('tavern-sample');
    expect(pkg.uuid).toMatch(UUID_FORM);
    expect(pkg.creator.version).toMatch(/^3\.8\.\d+$/);
  });

  test('settings/v2/packages hold the project settings; the preview starts in the tavern scene', () => {
    const project = readJson('settings/v2/packages/project.json');
    expect(project.__version__).toMatch(/^\d+\.\d+\.\d+$/);
    expect(project.general.designResolution).toEqual({ width: 1280, height: 720, fitHeight: true });
    for (const name of ['builder', 'engine', 'program', 'device']) {
      expect(readJson(`settings/v2/packages/${name}.json`).__version__).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(readJson('profiles/v2/packages/preview.json').general.start_scene).toBe(sceneMeta.uuid);
  });

  test('.gitignore keeps generated folders and the installed extension out', () => {
    const ignore = readFileSync(join(SAMPLE, '.gitignore'), 'utf8').split('\n');
    for (const entry of ['library/', 'temp/', 'local/', 'build/', 'extensions/']) expect(ignore).toContain(entry);
  });

  test('the README says how to build, copy the extension in (not link it) and open the scene', () => {
    const readme = readFileSync(join(SAMPLE, 'README.md'), 'utf8');
    expect(readme).toContain('npm run build');
    expect(readme).toContain('npm run install-into -- samples/tavern');
    expect(readme).toMatch(/Do not link the folder/);
    expect(readme).toContain('assets/scenes/tavern.scene');
  });

  test("the dialogue box's preset lines are the demo's evening", () => {
    const ui = scene.find((object) => Array.isArray(object.presetLines)) as SceneObject & { presetLines: string[] };
    expect(ui.presetLines).toEqual(EVENING);
  });
});

describe('npm run install-into', () => {
  const run = (args: string[]) => {
    try {
      return {
        code: 0,
        out: execFileSync(process.execPath, [join(REPO, 'scripts', 'install-extension.mjs'), ...args], {
          encoding: 'utf8',
          stdio: 'pipe',
        }),
      };
    } catch (error) {
      const err = error as { status: number; stderr: string };
      return { code: err.status, out: err.stderr };
    }
  };
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'oam-install-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'package.json'), '{"name":"game"}');
    return dir;
  };

  test('copies what the editor loads into extensions/oam-cocos, without build outputs or JVM test sources, and replaces an earlier copy', () => {
    const dir = project();
    try {
      expect(run([dir])).toMatchObject({ code: 0 });
      const target = join(dir, 'extensions', 'oam-cocos');
      for (const file of [
        'package.json',
        'dist/main.js',
        'assets/runtime/oam-core.js',
        'assets/runtime/package.json',
        'assets/runtime/package.json.meta',
        'assets/index.ts.meta',
        'i18n',
        'native-android',
      ]) {
        expect(existsSync(join(target, file))).toBe(true);
      }
      expect(existsSync(join(target, 'native-android', 'src', 'test'))).toBe(false);
      expect(existsSync(join(target, 'node_modules'))).toBe(false);
      expect(existsSync(join(target, 'src'))).toBe(false);
      writeFileSync(join(target, 'stale.txt'), 'x');
      expect(run([dir])).toMatchObject({ code: 0 });
      expect(existsSync(join(target, 'stale.txt'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses a folder that is not a Creator project, a linked install, and no argument, saying what to do', () => {
    const dir = project();
    try {
      expect(run([join(dir, 'assets')])).toMatchObject({
        code: 1,
        out: expect.stringMatching(/not a Cocos Creator project/),
      });
      mkdirSync(join(dir, 'extensions'));
      symlinkSync(REPO, join(dir, 'extensions', 'oam-cocos'));
      expect(run([dir])).toMatchObject({ code: 1, out: expect.stringMatching(/is a link; remove it first/) });
      expect(run([])).toMatchObject({ code: 2, out: expect.stringMatching(/usage/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metas', () => {
  test('every file and folder under assets/ has a meta, and every meta has its asset', () => {
    const entries = walk(SAMPLE_ASSETS);
    const assets = entries.filter((entry) => !entry.endsWith('.meta'));
    const metas = new Set(entries.filter((entry) => entry.endsWith('.meta')));
    expect(assets.filter((asset) => !metas.has(`${asset}.meta`))).toEqual([]);
    expect(Array.from(metas).filter((meta) => assets.indexOf(meta.slice(0, -5)) < 0)).toEqual([]);
    expect(assets.length).toBeGreaterThanOrEqual(12);
  });

  test("uuids are well formed and unique, here and against the extension's own metas", () => {
    for (const meta of sampleMetas)
      expect({ path: meta.path, ok: UUID_FORM.test(meta.uuid) }).toEqual({ path: meta.path, ok: true });
    const all = sampleMetas.concat(extensionMetas).map((meta) => meta.uuid);
    const repeated = all.filter((uuid, index) => all.indexOf(uuid) !== index);
    expect(repeated).toEqual([]);
  });

  test('importers fit the files (scripts, folders, JSON, the scene, the .persona handler)', () => {
    const importerOf = (asset: string) => sampleMetas.find((meta) => meta.asset === asset)!.importer;
    for (const meta of sampleMetas) {
      const expected = meta.asset.endsWith('.ts')
        ? 'typescript'
        : meta.asset.endsWith('.scene')
          ? 'scene'
          : meta.asset.endsWith('.persona')
            ? 'oam-persona'
            : meta.asset.endsWith('.json')
              ? 'json'
              : 'directory';
      expect({ asset: meta.asset, importer: meta.importer }).toEqual({ asset: meta.asset, importer: expected });
      expect(meta.raw.imported).toBe(true);
      expect(meta.raw.subMetas).toEqual({});
    }
    expect(importerOf('samples/tavern/assets/scripts')).toBe('directory');
  });

  test('the oam-persona importer name is the one the extension registers', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    const handlers = manifest.contributions['asset-db']['asset-handler'] as Array<{ name: string; extnames: string[] }>;
    expect(
      handlers.some((handler) => handler.name === 'oam-persona' && handler.extnames.indexOf('.persona') >= 0),
    ).toBe(true);
  });
});

describe('data assets', () => {
  test.each(['mira.persona', 'mira.persona.json', 'guard.persona.json'])(
    '%s is a valid persona with the schema marker',
    (file) => {
      const text = readFileSync(join(SAMPLE_ASSETS, file), 'utf8');
      expect(JSON.parse(text).$schema).toMatch(/persona\.schema\.json$/);
      const result = validatePersona(text);
      expect(result.ok ? [] : result.problems).toEqual([]);
    },
  );

  test('mira.persona and mira.persona.json are deliberate twins: the same persona (the .persona importer and the JsonAsset path)', () => {
    const read = (file: string) => readFileSync(join(SAMPLE_ASSETS, file), 'utf8');
    expect(JSON.parse(read('mira.persona'))).toEqual(JSON.parse(read('mira.persona.json')));
    const fromYaml = validatePersona(read('mira.persona'));
    const fromJson = validatePersona(read('mira.persona.json'));
    expect(fromYaml.ok && fromJson.ok).toBe(true);
    if (fromYaml.ok && fromJson.ok) expect(fromYaml.persona).toEqual(fromJson.persona);
  });

  test("Mira is the demo's Mira, and the world is the demo's world", () => {
    const demoMira = JSON.parse(readFileSync(join(REPO, 'demo', 'tavern', 'mira.persona.json'), 'utf8'));
    const { $schema, ...mira } = JSON.parse(readFileSync(join(SAMPLE_ASSETS, 'mira.persona.json'), 'utf8'));
    expect($schema).toBeDefined();
    expect(mira).toEqual(demoMira);
    expect(readFileSync(join(SAMPLE_ASSETS, 'mira.persona'), 'utf8')).toBe(
      readFileSync(join(SAMPLE_ASSETS, 'mira.persona.json'), 'utf8'),
    );
    expect(JSON.parse(readFileSync(join(SAMPLE_ASSETS, 'tavern-world.json'), 'utf8'))).toEqual(TAVERN_WORLD);
  });
});

describe('compressed uuids', () => {
  test('expand real Creator pairs (components in public 3.7 and 3.8 scenes and their script metas)', () => {
    expect(expandUuid('9d394Q+ApVHSbiXgHSLyn7h')).toBe('9d39443e-0295-4749-b897-80748bca7ee1');
    expect(expandUuid('08980ueiRRGEppIM+8glqoM')).toBe('08980b9e-8914-4612-9a48-33ef2096aa0c');
    expect(expandUuid('98cbd4d3zNLzrS8gPNAzQyB')).toBe('98cbde1d-df33-4bce-b4bc-80f340cd0c81');
  });

  test('bad forms are rejected', () => {
    expect(() => expandUuid('9d394Q+ApVHSbiXgHSLyn')).toThrow();
    expect(() => expandUuid('zz394Q+ApVHSbiXgHSLyn7h')).toThrow();
    expect(() => expandUuid('9d394Q+ApVHSbiXgHSLyn7!')).toThrow();
  });
});

describe('tavern.scene', () => {
  const byType = (type: string) => scene.filter((object) => object.__type__ === type);
  const at = (ref: unknown) => scene[(ref as { __id__: number }).__id__];

  test('is an array with one cc.SceneAsset first and one cc.Scene it points at', () => {
    expect(Array.isArray(scene)).toBe(true);
    expect(scene[0].__type__).toBe('cc.SceneAsset');
    expect(byType('cc.SceneAsset')).toHaveLength(1);
    expect(byType('cc.Scene')).toHaveLength(1);
    expect(at(scene[0].scene).__type__).toBe('cc.Scene');
    expect((at(scene[0].scene) as SceneObject)._id).toBe(sceneMeta.uuid);
    expect(byType('cc.SceneGlobals')).toHaveLength(1);
  });

  test('every __id__ points inside the array, and every object but the first is reachable', () => {
    const reached = new Set<number>([0]);
    const queue = [0];
    while (queue.length > 0) {
      const index = queue.shift()!;
      for (const reference of references(scene[index], `[${index}]`)) {
        if (reference.id === undefined) continue;
        expect({
          where: reference.where,
          inside: Number.isInteger(reference.id) && reference.id >= 0 && reference.id < scene.length,
        }).toEqual({
          where: reference.where,
          inside: true,
        });
        if (!reached.has(reference.id)) {
          reached.add(reference.id);
          queue.push(reference.id);
        }
      }
    }
    expect(scene.map((_, index) => index).filter((index) => !reached.has(index))).toEqual([]);
  });

  test('nodes and components link both ways; ids are unique', () => {
    const ids: string[] = [];
    scene.forEach((object, index) => {
      if (typeof object._id === 'string' && object.__type__ !== 'cc.Scene') ids.push(object._id);
      if (object.__type__ === 'cc.Node' || object.__type__ === 'cc.Scene') {
        for (const child of object._children as Array<{ __id__: number }>)
          expect(at(child)._parent).toEqual({ __id__: index });
        for (const component of object._components as Array<{ __id__: number }>)
          expect(at(component).node).toEqual({ __id__: index });
      }
      if ('node' in object && object.__type__ !== 'cc.ClickEvent') {
        const owner = at(object.node);
        expect((owner._components as Array<{ __id__: number }>).some((component) => component.__id__ === index)).toBe(
          true,
        );
      }
    });
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{2}[A-Za-z0-9+/]{20}$/);
  });

  test('every asset uuid exists: a meta of the sample or a built-in of Creator', () => {
    const known = new Set(sampleMetas.map((meta) => meta.uuid));
    const missing = references(scene).filter(
      (reference) => reference.uuid !== undefined && !known.has(reference.uuid) && !(reference.uuid in INTERNAL_ASSETS),
    );
    expect(missing).toEqual([]);
    const used = references(scene)
      .filter((reference) => reference.uuid !== undefined)
      .map((reference) => reference.uuid);
    expect(used).toContain(sampleMetas.find((meta) => meta.asset.endsWith('/mira.persona.json'))!.uuid);
    expect(used).toContain(sampleMetas.find((meta) => meta.asset.endsWith('/guard.persona.json'))!.uuid);
    expect(used).toContain(sampleMetas.find((meta) => meta.asset.endsWith('/tavern-world.json'))!.uuid);
  });

  test('every custom component type is the compressed uuid of a sample script or an extension component', () => {
    const custom = scene.filter((object) => isCustomType(object.__type__));
    const resolved = custom.map((object) => {
      const uuid = expandUuid(object.__type__);
      const meta = sampleMetas.concat(extensionMetas).find((candidate) => candidate.uuid === uuid);
      return meta ? meta.asset.replace(/^.*\//, '') : `unknown ${object.__type__}`;
    });
    expect(resolved.sort()).toEqual([
      'DecisionComponent.ts',
      'DialogueUI.ts',
      'DownloadBar.ts',
      'GuardBrain.ts',
      'NPCComponent.ts',
      'NanoStatus.ts',
      'ScriptedEvening.ts',
      'TavernGame.ts',
      'WorldStateStore.ts',
    ]);
    const otherTypes = scene.map((object) => object.__type__).filter((type) => !isCustomType(type));
    for (const type of otherTypes) expect(type).toMatch(/^(cc|oam)\.[A-Za-z]+$/);
  });

  test('custom components set only properties their scripts declare', () => {
    const base = new Set(['__type__', '_name', '_objFlags', '__editorExtras__', 'node', '_enabled', '__prefab', '_id']);
    for (const object of scene.filter((candidate) => isCustomType(candidate.__type__))) {
      const script = scriptsByType.get(object.__type__)!;
      const declared = declaredProperties(join(REPO, script));
      const extra = Object.keys(object).filter((key) => !base.has(key) && declared.indexOf(key) < 0);
      expect({ script, extra }).toEqual({ script, extra: [] });
    }
    for (const [type, script] of [
      ['oam.ToolDeclaration', 'ToolDeclaration.ts'],
      ['oam.DecisionOptionEntry', 'DecisionOptionEntry.ts'],
    ]) {
      const declared = declaredProperties(join(EXTENSION_ASSETS, 'components', script));
      for (const object of byType(type))
        expect(Object.keys(object).filter((key) => key !== '__type__' && declared.indexOf(key) < 0)).toEqual([]);
    }
  });

  test('click events call methods that exist on the target component', () => {
    const events = byType('cc.ClickEvent');
    expect(events.length).toBeGreaterThanOrEqual(9);
    for (const event of events) {
      const target = at(event.target);
      const component = (target._components as Array<{ __id__: number }>)
        .map(at)
        .find((candidate) => candidate.__type__ === event._componentId);
      expect({ handler: event.handler, onTarget: !!component }).toEqual({ handler: event.handler, onTarget: true });
      const source = readFileSync(join(REPO, scriptsByType.get(String(event._componentId))!), 'utf8');
      expect(source).toMatch(new RegExp(`\\n  ${event.handler}\\(`));
    }
  });

  test('Mira, the guard, the world, the dialogue box and the download bar are wired', () => {
    const component = (script: string) =>
      scene.find((object) => scriptsByType.get(object.__type__)?.endsWith(`/${script}.ts`))!;
    const world = component('WorldStateStore');
    const npc = component('NPCComponent');
    expect(npc.worldStore).toEqual({ __id__: scene.indexOf(world) });
    expect((npc.externalTools as unknown[]).map((tool) => at(tool).name)).toEqual(['check_menu', 'take_order']);
    const takeOrder = at((npc.externalTools as unknown[])[1]);
    expect(JSON.parse(String(takeOrder.parametersSchema)).required).toEqual(['item', 'quantity']);
    const decision = component('DecisionComponent');
    expect((decision.options as unknown[]).map((option) => at(option).id)).toEqual(['let_in', 'warn', 'alarm']);
    expect(decision.fallbackOption).toBe('warn');
    const game = component('TavernGame');
    expect(game.mira).toEqual({ __id__: scene.indexOf(npc) });
    const ui = component('DialogueUI');
    expect(ui.npc).toEqual({ __id__: scene.indexOf(npc) });
    expect((ui.optionButtons as unknown[]).map((button) => at(button).__type__)).toEqual([
      'cc.Button',
      'cc.Button',
      'cc.Button',
    ]);
    expect((ui.optionLabels as unknown[]).map((label) => at(label).__type__)).toEqual([
      'cc.Label',
      'cc.Label',
      'cc.Label',
    ]);
    expect(at(ui.input).__type__).toBe('cc.EditBox');
    const bar = component('DownloadBar');
    expect(at(bar.bar).__type__).toBe('cc.ProgressBar');
    expect(at(bar.node)._components).toContainEqual({ __id__: scene.indexOf(component('NanoStatus')) });
    const canvas = byType('cc.Canvas')[0];
    expect(at(canvas._cameraComponent).__type__).toBe('cc.Camera');
  });
});
