/**
 * One set of NPCComponent Inspector properties through every path that turns them into an NPC:
 * the component itself (on the cc double), the preview panel's scene reader (`readNpcNode`, then
 * the page's PreviewSession) and the token meter (`sceneNpcSetup`). Each builds a real NPC; the
 * stable prefix each sends the model is the same, and a set-up the game refuses is refused by all
 * three with the same words.
 */
jest.mock('cc', () => require('../cocos/cc-double'), { virtual: true });
jest.mock('cc/env', () => require('../cocos/cc-double').env, { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

import { NPC, npcSetupFromInspector, type GenerationRequest, type NPCInspectorProperties } from '../../src';
import { ScriptedLanguageModel, Script } from '../../src/testing';
import { loadComponents } from '../cocos/load';
import { mount, persona, quietConsole, MIRA } from '../cocos/mocks';
import { readNpcNode, setupRefusal } from '../../extension/panels/preview/npc-dump';
import { sceneNpcSetup } from '../../extension/token-meter/npc-setup';
import { PreviewSession } from '../../preview/page/preview-session';

const components = loadComponents();
quietConsole(() => components.OamRuntime.reset());

const WORLD = { player: { gold: 20 }, time: 'evening' };
const OPEN_DOOR = {
  name: 'open_door',
  description: 'Opens a door of the inn.',
  parametersSchema: JSON.stringify({ type: 'object', properties: { door: { type: 'string' } }, required: ['door'] }),
  timeoutMs: 0,
};

/** Every shaping property, with the rows a designer leaves blank in the Inspector. */
const PROPERTIES: NPCInspectorProperties = {
  worldReadable: [''],
  worldWritable: ['player.gold'],
  worldContextPaths: ['time'],
  groundingTool: '',
  replyFormat: 0,
  rememberFacts: true,
  trackRelationship: true,
  secretsUnlockAt: 20,
  secretsAlwaysGuarded: false,
  emotions: ['happy', ' sad ', ''],
  playerOptionCount: 2,
  canEndConversation: true,
  fallbackLines: ['Busy night, love.', '   '],
  externalTools: [OPEN_DOOR],
  extraInstructions: '  Never mention the cellar. ',
  externalToolTimeoutMs: 30000,
  toolTimeoutMs: 10000,
  priority: 100,
};

/** A scripted model that records each request and answers with one line. */
function recordingModel(): { model: ScriptedLanguageModel; requests: GenerationRequest[] } {
  const reply = { emotion: 'happy', line: 'Evening!', options: ['An ale, please.', 'Goodnight.'] };
  const model = new ScriptedLanguageModel([], {
    fallback: Script.dynamic((request) => JSON.stringify(request.kind === 'decide' ? { reply } : reply)),
  });
  return { model, requests: model.requests };
}

/** The scene's query-node dump of a node with an NPCComponent of these properties. */
function dumpOf(properties: NPCInspectorProperties): unknown {
  const wrap = (value: unknown): unknown =>
    Array.isArray(value) ? value.map((entry) => ({ value: wrap(entry) })) : value;
  const value: Record<string, { value: unknown }> = {
    persona: { value: { uuid: 'persona-1' } },
    worldStore: { value: { uuid: 'store-1' } },
  };
  for (const [key, field] of Object.entries(properties)) {
    value[key] =
      key === 'externalTools'
        ? {
            value: (field as Array<object | null>).map((tool) => ({
              value:
                tool && Object.fromEntries(Object.entries(tool).map(([name, setting]) => [name, { value: setting }])),
            })),
          }
        : { value: wrap(field) };
  }
  return { __comps__: [{ type: 'oam.NPCComponent', value }] };
}

function prefixOf(request: GenerationRequest): string {
  return `${request.systemInstruction}\n---\n${request.promptPrefix}`;
}

async function componentPrefix(properties: NPCInspectorProperties): Promise<string> {
  const { model, requests } = recordingModel();
  components.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
  const store = mount(components.WorldStateStore, { initialJson: JSON.stringify(WORLD) });
  // A row left empty in the Inspector is null on the component, as in Creator.
  const declarations = (properties.externalTools ?? []).map((tool) =>
    tool ? Object.assign(new components.ToolDeclaration(), tool) : null,
  );
  const npc = mount(components.NPCComponent, {
    ...(properties as object),
    externalTools: declarations,
    persona: persona(MIRA),
    worldStore: store,
  } as never);
  await npc.talk('Good evening!');
  return prefixOf(requests[0]);
}

async function meterPrefix(properties: NPCInspectorProperties): Promise<string> {
  const result = sceneNpcSetup(readNpcNode(dumpOf(properties))!, WORLD);
  if (!result.ok) throw new Error(result.message);
  const { model, requests } = recordingModel();
  await new NPC({ persona: MIRA, model, ...result.setup }).talk('Good evening!');
  return prefixOf(requests[0]);
}

async function previewPrefix(properties: NPCInspectorProperties): Promise<string> {
  const info = readNpcNode(dumpOf(properties))!;
  const { model, requests } = recordingModel();
  const session = new PreviewSession({
    persona: MIRA,
    model,
    npcOptions: info.options,
    extraTools: info.tools,
    initialWorld: WORLD,
  });
  await session.talk('Good evening!', () => undefined);
  return prefixOf(requests[0]);
}

describe('the Inspector → NPC mapping, one function for the component, the preview and the meter', () => {
  test('the same properties give the same options, tools and stable prefix on every path', async () => {
    const component = await componentPrefix(PROPERTIES);
    expect(await meterPrefix(PROPERTIES)).toBe(component);
    expect(await previewPrefix(PROPERTIES)).toBe(component);
    // The blank rows are left out everywhere, the text trimmed, the declared tool offered.
    const { options, tools } = npcSetupFromInspector(PROPERTIES);
    expect(options.emotions).toEqual(['happy', 'sad']);
    expect(options.fallbackLines).toEqual(['Busy night, love.']);
    expect(options.extraInstructions).toBe('Never mention the cellar.');
    expect(readNpcNode(dumpOf(PROPERTIES))!.options).toEqual(options);
    expect(tools.map((tool) => tool.name)).toEqual(['open_door']);
    expect(component).toContain('open_door');
    expect(component).toContain('Never mention the cellar.');
  });

  test.each([
    [
      'a parameters schema that is not JSON',
      { externalTools: [{ ...OPEN_DOOR, parametersSchema: '{ door' }] },
      /^externalTools\[0\] \(open_door\): the parameters schema is not JSON/,
    ],
    [
      'a parameters schema that is not an object',
      { externalTools: [{ ...OPEN_DOOR, parametersSchema: '[1]' }] },
      /^externalTools\[0\] \(open_door\): the parameters schema is not a JSON object\.$/,
    ],
    ['a tool without a name', { externalTools: [{ ...OPEN_DOOR, name: '' }] }, /^externalTools\[0\]: /],
    ['two rows with one name', { externalTools: [OPEN_DOOR, OPEN_DOOR] }, /^Two tools are named "open_door"/],
    ['an empty row', { externalTools: [OPEN_DOOR, null] }, /^externalTools\[1\] is empty\.$/],
  ])(
    '%s is refused with the same words by the component, the preview panel and the meter',
    async (_name, change, words) => {
      const properties = { ...PROPERTIES, ...change } as NPCInspectorProperties;
      let thrown: Error | undefined;
      try {
        npcSetupFromInspector(properties);
      } catch (error) {
        thrown = error as Error;
      }
      expect(thrown?.message).toMatch(words);
      const info = readNpcNode(dumpOf(properties))!;
      expect(setupRefusal(info)).toBe(thrown!.message);
      const meter = sceneNpcSetup(info, WORLD);
      expect(meter.ok ? '' : meter.message).toBe(thrown!.message);
      await expect(componentPrefix(properties)).rejects.toThrow(thrown!.message);
    },
  );
});
