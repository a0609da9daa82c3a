/**
 * What Creator's Inspector and scene loader see of the packed components on the real engine:
 * each class registered by its `oam.` name and by its script's compressed uuid, and every
 * Inspector property with the type, default, enum list and range the Inspector shows.
 */
import { js, CCClass, JsonAsset, CCString, CCInteger, CCFloat } from 'cc';
import { loadPack, type LoadedPack } from './harness/pack';

let pack: LoadedPack;
beforeAll(async () => {
  pack = await loadPack();
});

type Ctor = new () => object;
const index = () => pack.script<Record<string, Ctor>>('index');

/** The Inspector's view of one property: CCClass.Attr entries without the tooltip text. */
function attrs(ctor: Ctor, prop: string): Record<string, unknown> {
  const all = (CCClass as unknown as { Attr: { getClassAttrs(c: Ctor): Record<string, unknown> } }).Attr.getClassAttrs(
    ctor,
  );
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(all)) {
    const [name, attr] = key.split('$_$');
    if (name === prop && attr !== 'tooltip') out[attr] = value;
  }
  return out;
}

const COMPONENTS = [
  'NPCComponent',
  'DecisionComponent',
  'WorldStateStore',
  'NanoStatus',
  'OamRuntimeSettings',
  'QAOverlay',
];

describe('class registration', () => {
  test.each(COMPONENTS)('%s is registered by its oam. name and by its script uuid', (name) => {
    const ctor = index()[name];
    expect(js.getClassName(ctor)).toBe(`oam.${name}`);
    expect(js.getClassByName(`oam.${name}`)).toBe(ctor);
    const script = pack.manifest.scripts.find((entry) => entry.name === name)!;
    expect(script.classId).toMatch(/^[0-9a-f]{5}[A-Za-z0-9+/]{18}$/);
    expect(js.getClassById(script.classId)).toBe(ctor);
  });

  test('the value classes of Inspector lists are registered by name', () => {
    expect(js.getClassByName('oam.ToolDeclaration')).toBe(index().ToolDeclaration);
    expect(js.getClassByName('oam.DecisionOptionEntry')).toBe(index().DecisionOptionEntry);
  });

  test('the sample scripts are registered by their script uuid', () => {
    for (const name of ['TavernGame', 'DialogueUI', 'GuardBrain', 'DownloadBar', 'ScriptedEvening']) {
      const script = pack.manifest.scripts.find((entry) => entry.name === name)!;
      expect(js.getClassById(script.classId)).toBe(pack.script<Record<string, Ctor>>(name)[name]);
    }
  });
});

describe('Inspector properties as the engine records them', () => {
  test('NPCComponent: every property, in Inspector order, with type, default, enum and range', () => {
    const ctor = index().NPCComponent;
    const props = (ctor as unknown as { __props__: string[] }).__props__.filter(
      (property) => !property.startsWith('_') && property !== 'node',
    );
    expect(props).toEqual([
      'persona',
      'profile',
      'lineBank',
      'worldStore',
      'worldReadable',
      'worldWritable',
      'worldContextPaths',
      'groundingTool',
      'replyFormat',
      'rememberFacts',
      'trackRelationship',
      'secretsUnlockAt',
      'secretsAlwaysGuarded',
      'emotions',
      'playerOptionCount',
      'canEndConversation',
      'fallbackLines',
      'externalTools',
      'extraInstructions',
      'externalToolTimeoutMs',
      'toolTimeoutMs',
      'priority',
      'prewarmOnStart',
    ]);
    expect(attrs(ctor, 'persona')).toMatchObject({ type: 'Object', ctor: JsonAsset, default: null });
    expect(attrs(ctor, 'lineBank')).toMatchObject({ type: 'Object', ctor: JsonAsset, default: null });
    expect(attrs(ctor, 'profile')).toMatchObject({ type: 'Object', ctor: JsonAsset, default: null });
    expect(attrs(ctor, 'worldStore')).toMatchObject({ type: 'Object', ctor: index().WorldStateStore, default: null });
    for (const list of ['worldReadable', 'worldWritable', 'worldContextPaths', 'emotions', 'fallbackLines']) {
      expect(attrs(ctor, list).type).toBe(CCString);
    }
    const defaults = new (ctor as new () => Record<string, unknown>)();
    expect(defaults.worldReadable).toEqual(['']);
    for (const empty of ['worldWritable', 'worldContextPaths', 'emotions', 'fallbackLines', 'externalTools'])
      expect(defaults[empty]).toEqual([]);
    expect(attrs(ctor, 'groundingTool')).toMatchObject({ default: '' });
    const format = attrs(ctor, 'replyFormat');
    expect(format).toMatchObject({ type: 'Enum', default: 0 });
    expect(
      (format.enumList as Array<{ name: string; value: number }>).map((member) => [member.name, member.value]),
    ).toEqual([
      ['Automatic', 0],
      ['Structured', 1],
      ['Text', 2],
    ]);
    expect(attrs(ctor, 'secretsUnlockAt')).toMatchObject({
      type: CCInteger,
      default: 50,
      min: -100,
      max: 100,
      step: 1,
    });
    expect(attrs(ctor, 'playerOptionCount')).toMatchObject({ type: CCInteger, default: 0, min: 0, max: 4, step: 1 });
    expect(attrs(ctor, 'externalTools')).toMatchObject({ type: 'Object', ctor: index().ToolDeclaration });
    expect(attrs(ctor, 'extraInstructions')).toMatchObject({ default: '', multiline: true });
    expect(attrs(ctor, 'externalToolTimeoutMs')).toMatchObject({ type: CCInteger, default: 30000 });
    expect(attrs(ctor, 'toolTimeoutMs')).toMatchObject({ type: CCInteger, default: 10000 });
    expect(attrs(ctor, 'priority')).toMatchObject({ type: CCInteger, default: 100 });
    // Booleans carry no type attribute; the Inspector shows a checkbox from the default's type.
    for (const flag of ['rememberFacts', 'trackRelationship', 'secretsAlwaysGuarded'])
      expect(attrs(ctor, flag)).toEqual({ default: false });
    for (const flag of ['canEndConversation', 'prewarmOnStart']) expect(attrs(ctor, flag)).toEqual({ default: true });
  });

  test('DecisionComponent, WorldStateStore, NanoStatus, OamRuntimeSettings and the list entries', () => {
    const components = index();
    expect(attrs(components.DecisionComponent, 'options')).toMatchObject({
      type: 'Object',
      ctor: components.DecisionOptionEntry,
    });
    expect(attrs(components.DecisionComponent, 'actor')).toMatchObject({
      type: 'Object',
      ctor: JsonAsset,
      default: null,
    });
    expect(attrs(components.DecisionComponent, 'fallbackOption')).toMatchObject({ default: '' });
    expect(attrs(components.DecisionComponent, 'timeBudgetMs')).toMatchObject({ type: CCInteger, default: 0 });
    expect(attrs(components.DecisionComponent, 'withReason')).toMatchObject({ default: true });
    expect(attrs(components.DecisionComponent, 'priority')).toMatchObject({ type: CCInteger, default: 50 });
    expect(attrs(components.WorldStateStore, 'initialState')).toMatchObject({
      type: 'Object',
      ctor: JsonAsset,
      default: null,
    });
    expect(attrs(components.WorldStateStore, 'initialJson')).toMatchObject({ default: '', multiline: true });
    expect(attrs(components.NanoStatus, 'refreshOnLoad')).toMatchObject({ default: true });
    expect(attrs(components.NanoStatus, 'autoDownload')).toMatchObject({ default: false });
    expect(attrs(components.NanoStatus, 'status')).toMatchObject({ default: 'unknown', readonly: true });
    expect(attrs(components.NanoStatus, 'progress')).toMatchObject({ default: 0, readonly: true });
    expect(attrs(components.OamRuntimeSettings, 'openaiUrl')).toMatchObject({ default: '' });
    expect(attrs(components.OamRuntimeSettings, 'openaiModel')).toMatchObject({ default: 'default' });
    expect(attrs(components.OamRuntimeSettings, 'callsPerMinute')).toMatchObject({ type: CCInteger, default: 30 });
    expect(attrs(components.NanoStatus, 'message')).toMatchObject({ default: '', readonly: true, multiline: true });
    expect((components.ToolDeclaration as unknown as { __props__: string[] }).__props__).toEqual([
      'name',
      'description',
      'parametersSchema',
      'timeoutMs',
    ]);
    expect(attrs(components.ToolDeclaration, 'name')).toMatchObject({ default: '' });
    expect(attrs(components.ToolDeclaration, 'description')).toMatchObject({ default: '', multiline: true });
    expect(attrs(components.ToolDeclaration, 'parametersSchema')).toMatchObject({ default: '', multiline: true });
    expect(attrs(components.ToolDeclaration, 'timeoutMs')).toMatchObject({ type: CCInteger, default: 0 });
    expect((components.DecisionOptionEntry as unknown as { __props__: string[] }).__props__).toEqual([
      'id',
      'description',
      'weight',
      'when',
    ]);
    expect(attrs(components.DecisionOptionEntry, 'id')).toMatchObject({ default: '' });
    expect(attrs(components.DecisionOptionEntry, 'description')).toMatchObject({ default: '' });
    expect(attrs(components.DecisionOptionEntry, 'weight')).toMatchObject({ type: CCFloat, default: 1, min: 0 });
    expect(attrs(components.DecisionOptionEntry, 'when')).toMatchObject({ default: '' });
  });

  test('the execution order the engine honours: settings first, then the world, then the rest', () => {
    const order = (ctor: Ctor) => (ctor as unknown as { _executionOrder?: number })._executionOrder || 0;
    expect(order(index().OamRuntimeSettings)).toBe(-100);
    expect(order(index().WorldStateStore)).toBe(-50);
    expect(order(index().NPCComponent)).toBe(0);
  });
});

describe("Creator's circular-reference reporter", () => {
  test('loading every packed script reported no circular import', async () => {
    const reporter = await (
      globalThis as unknown as { System: { import(id: string): Promise<{ reports: unknown[] }> } }
    ).System.import('cce:/internal/code-quality/cr.mjs');
    expect(reporter.reports).toEqual([]);
  });
});
