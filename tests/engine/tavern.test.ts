/**
 * The tavern sample on the real engine: tavern.scene, as saved, deserialized by the engine with
 * every class found (engine UI classes by name, the sample's and the extension's scripts by
 * their compressed uuid), its JSON assets resolved, run as the scene; then Mira's evening on the
 * scripted stand-in, the guard's decisions and the download bar.
 */
import { deserialize, director, js, JsonAsset, Label, Node, Scene, SceneAsset } from 'cc';
import type { Component } from 'cc';
import type { DialogueTurn, ToolRecord, Decision } from '../../assets/runtime/oam-core.js';
import type { NPCComponent, WorldStateStore, NanoStatus, DecisionComponent } from '../../assets/index';
import { frame, settle, until, useBatcher } from './harness/scene';
import { guard } from './harness/guards';
import { loadOam, type LoadedOam } from './harness/oam';

const { readFileSync, readdirSync, statSync } = require('fs') as typeof import('fs');

let oam: LoadedOam;
beforeAll(async () => {
  oam = await loadOam();
});
guard(() => oam.C.OamRuntime.reset());

interface DialogueUI extends Component {
  lineLabel: Label;
  emotionLabel: Label;
  speakerLabel: Label;
  playerLabel: Label;
  optionButtons: Array<Component & { interactable: boolean }>;
  optionLabels: Label[];
  input: Component & { string: string };
  presetLines: string[];
  options: string[];
  busy: boolean;
  say(line: string): Promise<DialogueTurn | null>;
  onOptionClicked(event: unknown, data: string): void;
  onSendClicked(): void;
}
interface TavernGame extends Component {
  answered: Array<{ tool: string; answer: { ok: boolean } }>;
}
interface GuardBrain extends Component {
  approach(situation?: string): Promise<Decision | null>;
  onApproachClicked(e: unknown, data: string): void;
  statusLabel: Label;
  lastDecision: Decision | null;
}
interface DownloadBar extends Component {
  bar: { progress: number };
  messageLabel: Label;
}

/** Every asset of the project by uuid (the scene refers to the persona and world JSON files). */
function projectAssets(root: string): Map<string, { path: string; importer: string }> {
  const found = new Map<string, { path: string; importer: string }>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = `${dir}/${name}`;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.meta')) {
        const meta = JSON.parse(readFileSync(path, 'utf8'));
        found.set(meta.uuid, { path: path.slice(0, -5), importer: meta.importer });
      }
    }
  };
  walk(root);
  return found;
}

const missing: string[] = [];

/** Deserializes tavern.scene with the engine's own deserializer and runs it. */
function openTavern(): { node(path: string): Node; get<T>(path: string, name: string): T } {
  const project = (oam.pack.manifest as unknown as { project: string }).project;
  const json = JSON.parse(readFileSync(`${project}/assets/scenes/tavern.scene`, 'utf8'));
  const details = new deserialize.Details();
  const asset = deserialize(json, details, {
    reportMissingClass: (id: string) => missing.push(id),
  } as never) as SceneAsset;
  const assets = projectAssets(`${project}/assets`);
  details.assignAssetsBy((uuid: string) => {
    const known = assets.get(uuid);
    if (!known) return null as unknown as JsonAsset; // the engine's built-in UI sprite frames: nothing here draws
    const jsonAsset = new JsonAsset();
    jsonAsset.json = JSON.parse(readFileSync(known.path, 'utf8'));
    jsonAsset.name = known.path.replace(/^.*\//, '');
    return jsonAsset;
  });
  useBatcher();
  director.runSceneImmediate(asset);
  frame(); // start() runs on the first frame
  const scene = director.getScene()!;
  const node = (path: string): Node => {
    const found = path
      .split('/')
      .reduce<Node | null>((parent, name) => (parent ? parent.getChildByName(name) : null), scene as unknown as Node);
    if (!found) throw new Error(`no node ${path} in tavern.scene`);
    return found;
  };
  return {
    node,
    get<T>(path: string, name: string): T {
      const ctor = js.getClassByName(name) as unknown as new () => Component;
      const component = node(path).getComponent(ctor);
      if (!component) throw new Error(`no ${name} on ${path}`);
      return component as unknown as T;
    },
  };
}

describe('tavern.scene on the real engine', () => {
  test('it deserializes with no missing class, and Mira is set up from the scene', () => {
    const scene = openTavern();
    expect(missing).toEqual([]);
    const mira = scene.get<NPCComponent>('Canvas/Mira', 'oam.NPCComponent');
    expect(mira.setupError).toBeNull();
    expect(oam.C.OamRuntime.kind).toBe('stand-in');
    expect(scene.get<Label>('Canvas/Hud', 'cc.Label').string).toBe('Gold: 20    Carrying: nothing');
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    expect(ui.speakerLabel.string).toBe('Mira');
    expect(ui.lineLabel.string).toBe('Welcome to the Crooked Lantern, traveller!');
    expect(ui.options).toEqual(ui.presetLines.slice(0, 3));
    expect(ui.optionLabels.map((label) => label.string)).toEqual(ui.presetLines.slice(0, 3));
  });

  test("Mira's evening: tools answered by TavernGame, world and HUD updated, each line streamed into the Label", async () => {
    const scene = openTavern();
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    const game = scene.get<TavernGame>('Game', 'tavern.TavernGame');
    const world = scene.get<WorldStateStore>('World', 'oam.WorldStateStore');
    const hud = scene.get<Label>('Canvas/Hud', 'cc.Label');
    const mira = scene.get<NPCComponent>('Canvas/Mira', 'oam.NPCComponent');
    let shown: string[] = [];
    // DialogueUI listens first (its onLoad), so the label already shows each event's line here.
    mira.node.on(oam.C.NPC_EVENTS.line, () => shown.push(ui.lineLabel.string));

    const evening = ui.presetLines.slice();
    expect(evening).toHaveLength(6);
    const turns: DialogueTurn[] = [];
    for (const line of evening) {
      expect(ui.options[0]).toBe(line);
      shown = [];
      const turn = await ui.say(line);
      expect(turn).not.toBeNull();
      turns.push(turn!);
      expect(shown[shown.length - 1]).toBe(turn!.line);
      expect(ui.busy).toBe(false);
    }
    expect(turns.map((turn) => turn.line)).toEqual([
      "Lamb stew's bubbling, 5 gold a bowl. Ale's 3 gold, cider 4.",
      "Two ales, coming right up. That's 6 gold, you've 14 left.",
      "Busy as a beehive, and twice as loud. Can't complain!",
      "Aren't you a sweetheart. You're welcome here any night.",
      "Between us? I saw the mayor's men hide a chest of silver in the old mill.",
      'Goodnight, traveller. Mind the step on your way out!',
    ]);
    expect(turns.map((turn) => turn.emotion)).toEqual(['happy', 'happy', 'amused', 'grateful', 'suspicious', 'happy']);
    expect(turns[5].endsConversation).toBe(true);
    expect(game.answered.map((answer) => answer.tool)).toEqual(['check_menu', 'take_order']);
    const calls = ([] as ToolRecord[]).concat(...turns.map((turn) => turn.toolCalls)).map((record) => record.call.name);
    expect(calls).toEqual(['check_menu', 'take_order', 'change_relationship']);
    expect(turns[3].relationship).toBe(10);
    expect(world.get('player.gold')).toBe(14);
    expect(world.get('player.inventory')).toEqual(['ale', 'ale']);
    expect(hud.string).toBe('Gold: 14    Carrying: ale, ale');
    expect(ui.emotionLabel.string).toBe('(happy)');
    expect(ui.options).toEqual(evening.slice(0, 3)); // after goodbye the evening starts over
  });

  test('a line streams in several deltas; the buttons are off while Mira talks', async () => {
    const scene = openTavern();
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    const mira = scene.get<NPCComponent>('Canvas/Mira', 'oam.NPCComponent');
    const deltas: string[] = [];
    mira.node.on(oam.C.NPC_EVENTS.line, (event: { delta: string }) => deltas.push(event.delta));
    ui.onOptionClicked(null, '2'); // "How's business these days?"
    expect(ui.busy).toBe(true);
    expect(ui.optionButtons.every((button) => !button.interactable)).toBe(true);
    expect(ui.playerLabel.string).toBe("You: How's business these days?");
    await until(() => !ui.busy, 'the turn');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe("Busy as a beehive, and twice as loud. Can't complain!");
    expect(ui.optionButtons.every((button) => button.interactable)).toBe(true);
  });

  test('an order the purse cannot pay: TavernGame fails the tool and Mira says so', async () => {
    const scene = openTavern();
    const world = scene.get<WorldStateStore>('World', 'oam.WorldStateStore');
    world.set('player.gold', 4);
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    const turn = await ui.say('Two ales, please.');
    expect(turn!.line).toBe("Your purse is a bit light for that, I'm afraid.");
    expect(world.get('player.gold')).toBe(4);
    expect(scene.get<TavernGame>('Game', 'tavern.TavernGame').answered).toEqual([
      { tool: 'take_order', answer: { ok: false, error: 'The player has 4 gold; 2 ale cost 6.' } },
    ]);
  });

  test('typed lines go through the EditBox; blank lines are ignored', async () => {
    const scene = openTavern();
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    ui.input.string = '   ';
    ui.onSendClicked();
    expect(ui.busy).toBe(false);
    ui.input.string = 'Is there anything to eat?';
    ui.onSendClicked();
    expect(ui.input.string).toBe('');
    expect(ui.busy).toBe(true);
    expect(await ui.say('Goodnight!')).toBeNull(); // busy: ignored
    await until(() => !ui.busy, 'the typed turn');
    expect(ui.lineLabel.string).toBe("Lamb stew's bubbling, 5 gold a bowl. Ale's 3 gold, cider 4.");
  });

  test('the guard decides from the situation, with facts from the world', async () => {
    const scene = openTavern();
    const brain = scene.get<GuardBrain>('Canvas/Guard', 'tavern.GuardBrain');
    const decisions = scene.get<DecisionComponent>('Canvas/Guard', 'oam.DecisionComponent');
    expect(decisions.options.map((option) => option.id)).toEqual(['let_in', 'warn', 'alarm']);
    expect((await brain.approach())!.optionId).toBe('let_in');
    expect(brain.statusLabel.string).toMatch(/^Brann steps aside/);
    brain.onApproachClicked(null, 'A traveller walks up to the gate with a drawn sword.');
    await until(() => brain.lastDecision!.optionId !== 'let_in', 'the second decision');
    expect(brain.lastDecision!.optionId).toBe('alarm');
    expect((await brain.approach('A traveller staggers up to the gate, singing loudly.'))!.optionId).toBe('warn');
  });

  test('the download bar shows the stand-in as ready (NanoStatus off Android), then hides after 2 s of frames', async () => {
    const scene = openTavern();
    const bar = scene.get<DownloadBar>('Canvas/ModelStatus', 'tavern.DownloadBar');
    const status = scene.get<NanoStatus>('Canvas/ModelStatus', 'oam.NanoStatus');
    await until(() => status.status === 'available', 'NanoStatus');
    expect(status.kind).toBe('stand-in');
    expect(bar.messageLabel.string).toMatch(/stand-in/);
    expect(bar.bar.progress).toBe(1);
    expect(scene.node('Canvas/ModelStatus/Download').active).toBe(false);
    expect(bar.node.active).toBe(true);
    for (let index = 0; index < 130; index++) frame(); // scheduleOnce(…, 2) runs on the engine's scheduler
    expect(bar.node.active).toBe(false);
  });

  test('leaving the scene mid-turn: the turn ends cancelled and nothing throws', async () => {
    const scene = openTavern();
    const ui = scene.get<DialogueUI>('Canvas/Dialogue', 'tavern.DialogueUI');
    const mira = scene.get<NPCComponent>('Canvas/Mira', 'oam.NPCComponent');
    const turn = mira.talk('Evening!').then(
      () => 'completed',
      (error: { code: string }) => error.code,
    );
    ui.busy = true;
    director.runSceneImmediate(new Scene('next'));
    frame();
    expect(await turn).toBe('cancelled');
    await settle(10);
  });
});

describe("the sample's game logic, as packed", () => {
  type ToolAnswer = { ok: true; output: unknown } | { ok: false; error: string };
  interface TavernState {
    get<T = unknown>(path: string): T | undefined;
    set(path: string, value: unknown): boolean;
  }
  const WORLD = {
    player: { gold: 20, inventory: [] as string[] },
    tavern: { menu: { ale: 3, stew: 5, bread: 1, cider: 4 } },
  };
  const tavern = () =>
    oam.pack.script<{
      checkMenu(state: TavernState): ToolAnswer;
      takeOrder(state: TavernState, args: Record<string, unknown>): ToolAnswer;
      answerTavernTool(state: TavernState, name: string, args: Record<string, unknown>): ToolAnswer;
    }>('TavernGame');
  const worldOf = (json: object): TavernState => new oam.core.WorldState(JSON.parse(JSON.stringify(json)));

  test('check_menu answers the menu from the world', () => {
    expect(tavern().checkMenu(worldOf(WORLD))).toEqual({ ok: true, output: WORLD.tavern.menu });
    expect(tavern().checkMenu(worldOf({}))).toEqual({ ok: false, error: expect.stringMatching(/menu/) });
  });

  test('take_order takes the gold and fills the inventory', () => {
    const state = worldOf(WORLD);
    expect(tavern().takeOrder(state, { item: 'ale', quantity: 2 })).toEqual({
      ok: true,
      output: { served: 2, item: 'ale', cost: 6, goldLeft: 14 },
    });
    expect(state.get('player.gold')).toBe(14);
    expect(state.get('player.inventory')).toEqual(['ale', 'ale']);
    expect(tavern().takeOrder(state, { item: 'Stew ', quantity: 1 })).toMatchObject({
      ok: true,
      output: { item: 'stew', goldLeft: 9 },
    });
  });

  test('take_order refuses what the player cannot pay, unknown items and bad quantities, changing nothing', () => {
    const state = worldOf({ ...WORLD, player: { gold: 5, inventory: [] } });
    const bad: Array<Record<string, unknown>> = [
      { item: 'ale', quantity: 2 },
      { item: 'mead', quantity: 1 },
      { item: 42, quantity: 1 },
      { item: 'ale', quantity: 0 },
      { item: 'ale', quantity: 1.5 },
      { item: 'ale', quantity: 11 },
      { item: 'ale', quantity: '2' },
      { item: 'ale', quantity: NaN },
    ];
    for (const args of bad) expect(tavern().takeOrder(state, args)).toEqual({ ok: false, error: expect.any(String) });
    expect(tavern().takeOrder(state, { item: 'ale', quantity: 2 })).toEqual({
      ok: false,
      error: 'The player has 5 gold; 2 ale cost 6.',
    });
    expect(state.get('player.gold')).toBe(5);
    expect(state.get('player.inventory')).toEqual([]);
    expect(tavern().answerTavernTool(worldOf(WORLD), 'open_door', {})).toEqual({
      ok: false,
      error: 'The tavern cannot do open_door.',
    });
  });

  test('describeDecision covers fallbacks and unknown ids; the download bar explains progress and unsupported devices', () => {
    const guardBrain = oam.pack.script<{ describeDecision(d: Decision): string }>('GuardBrain');
    const decision = { optionId: 'warn', reason: '', confidence: 0, isFallback: true, modelCalls: 1 } as Decision;
    expect(guardBrain.describeDecision(decision)).toMatch(/no time to think/);
    expect(guardBrain.describeDecision({ ...decision, optionId: 'dance', isFallback: false })).toBe(
      'Brann decides: dance.',
    );

    const scene = openTavern();
    const bar = scene.get<DownloadBar & { onAvailability(e: object): void; onProgress(p: object): void }>(
      'Canvas/ModelStatus',
      'tavern.DownloadBar',
    );
    const button = scene.node('Canvas/ModelStatus/Download');
    bar.onAvailability({
      status: 'downloadable',
      message: 'The on-device AI model needs a download before first use.',
    });
    expect(button.active).toBe(true);
    bar.onProgress({ bytesDownloaded: 512 * 1024 * 1024, totalBytes: 1024 * 1024 * 1024, fraction: 0.5 });
    expect(bar.bar.progress).toBe(0.5);
    expect(bar.messageLabel.string).toBe('Downloading the AI model… 50% of 1024 MB');
    expect(button.active).toBe(false);
    bar.onAvailability({ status: 'unavailable', message: 'This device cannot run Gemini Nano.' });
    expect(bar.messageLabel.string).toBe('This device cannot run Gemini Nano.');
    expect(bar.bar.progress).toBe(0);
  });
});
