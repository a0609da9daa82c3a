/**
 * The tavern sample's scripts at work: the saved scene is instantiated with the 'cc' test double
 * (tests/cocos/cc-double.ts plus the UI classes in cc-ui-double.ts), the extension's real
 * components run on the core from src/, and the scripted evening answers. Mira's tools are
 * answered by TavernGame, lines stream into DialogueUI's Label, the guard decides, the download
 * bar follows NanoStatus.
 */
jest.mock('cc', () => require('./cc-ui-double').cc, { virtual: true });
jest.mock('cc/env', () => require('../cocos/cc-double').env, { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src'), { virtual: true });
jest.mock('db://oam-cocos/index', () => require('../../assets/index'), { virtual: true });

import type { Decision, DialogueTurn, ToolRecord } from '../../src';
import { WorldState } from '../../src';
import { EVENING } from '../../demo/tavern/evening';
import { Button, Component, EditBox, Label, ProgressBar } from './cc-ui-double';
import { loadComponents, type NPCComponentLike, type WorldStateStoreLike, type DecisionComponentLike, type NanoStatusLike } from '../cocos/load';
import { loadScene, type LoadedScene } from './scene-loader';
import { quietConsole } from '../cocos/mocks';

// ---- the sample's scripts, required (not imported: see tests/cocos/load.ts) -------------------

type ToolAnswer = { ok: true; output: unknown } | { ok: false; error: string };
interface TavernState { get<T = unknown>(path: string): T | undefined; set(path: string, value: unknown): boolean }
interface TavernGameLike extends Component { mira: NPCComponentLike | null; world: WorldStateStoreLike | null; hudLabel: Label | null; answered: Array<{ tool: string; answer: ToolAnswer }> }
interface DialogueUILike extends Component {
  npc: NPCComponentLike | null;
  lineLabel: Label | null;
  emotionLabel: Label | null;
  speakerLabel: Label | null;
  playerLabel: Label | null;
  optionButtons: Button[];
  optionLabels: Label[];
  input: EditBox | null;
  presetLines: string[];
  options: string[];
  busy: boolean;
  say(line: string): Promise<DialogueTurn | null>;
  onOptionClicked(event: unknown, data: string): void;
  onSendClicked(): void;
  onLine(e: { delta: string; line: string; isReset: boolean }): void;
}
interface GuardBrainLike extends Component { approach(situation?: string): Promise<Decision | null>; onApproachClicked(e: unknown, data: string): void; facts(): Record<string, unknown>; statusLabel: Label | null; lastDecision: Decision | null }
interface DownloadBarLike extends Component {
  bar: ProgressBar | null;
  messageLabel: Label | null;
  onAvailability(e: { status: string; message: string }): void;
  onProgress(p: { bytesDownloaded: number; totalBytes?: number; fraction?: number }): void;
  onDownloadClicked(): void;
}
interface ScriptedEveningLike extends Component { chunkDelayMs: number }

const C = loadComponents();
/* eslint-disable @typescript-eslint/no-var-requires */
const Tavern = require('../../samples/tavern/assets/scripts/TavernGame') as {
  TavernGame: new () => TavernGameLike;
  checkMenu(state: TavernState): ToolAnswer;
  takeOrder(state: TavernState, args: Record<string, unknown>): ToolAnswer;
  answerTavernTool(state: TavernState, name: string, args: Record<string, unknown>): ToolAnswer;
};
const { DialogueUI } = require('../../samples/tavern/assets/scripts/DialogueUI') as { DialogueUI: new () => DialogueUILike };
const Guard = require('../../samples/tavern/assets/scripts/GuardBrain') as { GuardBrain: new () => GuardBrainLike; describeDecision(d: Decision): string };
const Bar = require('../../samples/tavern/assets/scripts/DownloadBar') as { DownloadBar: new () => DownloadBarLike; progressText(p: { bytesDownloaded: number; totalBytes?: number; fraction?: number }): string };
const Evening = require('../../samples/tavern/assets/scripts/ScriptedEvening') as { ScriptedEvening: new () => ScriptedEveningLike; tavernStandIn(delay?: number): { rules: unknown[] } };
/* eslint-enable @typescript-eslint/no-var-requires */

const ENGINE = { 'cc.Label': Label, 'cc.Button': Button, 'cc.EditBox': EditBox, 'cc.ProgressBar': ProgressBar };
const SCRIPTS = {
  NPCComponent: C.NPCComponent,
  DecisionComponent: C.DecisionComponent,
  WorldStateStore: C.WorldStateStore,
  NanoStatus: C.NanoStatus,
  TavernGame: Tavern.TavernGame,
  DialogueUI,
  GuardBrain: Guard.GuardBrain,
  DownloadBar: Bar.DownloadBar,
  ScriptedEvening: Evening.ScriptedEvening,
};
const VALUES = { 'oam.ToolDeclaration': C.ToolDeclaration, 'oam.DecisionOptionEntry': C.DecisionOptionEntry };

function openTavern(): LoadedScene {
  // ScriptedEvening has executionOrder -200 in Creator: its node activates first here.
  const scene = loadScene(ENGINE, SCRIPTS, VALUES, ['Game']);
  return scene;
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await flush();
  }
  throw new Error(`timed out waiting for ${what}`);
}

function worldOf(json: object): TavernState {
  return new WorldState(JSON.parse(JSON.stringify(json)));
}
const WORLD = { player: { gold: 20, inventory: [] as string[] }, tavern: { menu: { ale: 3, stew: 5, bread: 1, cider: 4 } } };

quietConsole(() => C.OamRuntime.reset());

describe('TavernGame tool logic', () => {
  test('check_menu answers the menu from the world', () => {
    expect(Tavern.checkMenu(worldOf(WORLD))).toEqual({ ok: true, output: WORLD.tavern.menu });
    expect(Tavern.checkMenu(worldOf({}))).toEqual({ ok: false, error: expect.stringMatching(/menu/) });
  });

  test('take_order takes the gold and fills the inventory', () => {
    const state = worldOf(WORLD);
    expect(Tavern.takeOrder(state, { item: 'ale', quantity: 2 })).toEqual({ ok: true, output: { served: 2, item: 'ale', cost: 6, goldLeft: 14 } });
    expect(state.get('player.gold')).toBe(14);
    expect(state.get('player.inventory')).toEqual(['ale', 'ale']);
    expect(Tavern.takeOrder(state, { item: 'Stew ', quantity: 1 })).toMatchObject({ ok: true, output: { item: 'stew', goldLeft: 9 } });
    expect(state.get('player.inventory')).toEqual(['ale', 'ale', 'stew']);
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
    for (const args of bad) expect(Tavern.takeOrder(state, args)).toEqual({ ok: false, error: expect.any(String) });
    expect(Tavern.takeOrder(state, { item: 'ale', quantity: 2 })).toEqual({ ok: false, error: 'The player has 5 gold; 2 ale cost 6.' });
    expect(state.get('player.gold')).toBe(5);
    expect(state.get('player.inventory')).toEqual([]);
  });

  test('an unknown tool is refused', () => {
    expect(Tavern.answerTavernTool(worldOf(WORLD), 'open_door', {})).toEqual({ ok: false, error: 'The tavern cannot do open_door.' });
  });
});

describe('the scene at play (scripted evening)', () => {
  test('it loads: Mira is set up from the scene, the HUD and the dialogue box show the start', () => {
    const scene = openTavern();
    const mira = scene.component('Canvas/Mira', C.NPCComponent);
    expect(mira.setupError).toBeNull();
    expect(C.OamRuntime.kind).toBe('stand-in');
    expect(scene.component('Canvas/Hud', Label).string).toBe('Gold: 20    Carrying: nothing');
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    expect(ui.speakerLabel!.string).toBe('Mira');
    expect(ui.lineLabel!.string).toBe('Welcome to the Crooked Lantern, traveller!');
    expect(ui.options).toEqual(EVENING.slice(0, 3));
    expect(ui.optionLabels.map((l) => l.string)).toEqual(EVENING.slice(0, 3));
  });

  test('Mira\'s evening: tools answered by TavernGame, world and HUD updated, lines streamed', async () => {
    const scene = openTavern();
    scene.component('Game', Evening.ScriptedEvening); // present
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    const game = scene.component('Game', Tavern.TavernGame);
    const world = scene.component('World', C.WorldStateStore);
    const hud = scene.component('Canvas/Hud', Label);

    const turns: DialogueTurn[] = [];
    for (const line of EVENING) {
      expect(ui.options[0]).toBe(line); // the preset buttons follow the evening
      ui.lineLabel!.history.length = 0;
      const turn = await ui.say(line);
      expect(turn).not.toBeNull();
      turns.push(turn as DialogueTurn);
      // The label grew through the deltas and ended on the finished line.
      const shown = ui.lineLabel!.history.filter((s) => s !== '');
      expect(shown[shown.length - 1]).toBe(turn!.line);
      expect(ui.busy).toBe(false);
    }

    expect(turns.map((t) => t.line)).toEqual([
      "Lamb stew's bubbling, 5 gold a bowl. Ale's 3 gold, cider 4.",
      "Two ales, coming right up. That's 6 gold, you've 14 left.",
      "Busy as a beehive, and twice as loud. Can't complain!",
      "Aren't you a sweetheart. You're welcome here any night.",
      // The scene sets Mira's secretsUnlockAt to 10, as the demo does: her secret is out.
      "Between us? I saw the mayor's men hide a chest of silver in the old mill.",
      'Goodnight, traveller. Mind the step on your way out!',
    ]);
    expect(turns.map((t) => t.emotion)).toEqual(['happy', 'happy', 'amused', 'grateful', 'suspicious', 'happy']);
    expect(turns[5].endsConversation).toBe(true);
    expect(game.answered.map((a) => a.tool)).toEqual(['check_menu', 'take_order']);
    const calls = ([] as ToolRecord[]).concat(...turns.map((t) => t.toolCalls)).map((r) => r.call.name);
    expect(calls).toEqual(['check_menu', 'take_order', 'change_relationship']);
    expect(turns[3].relationship).toBe(10);
    expect(world.get('player.gold')).toBe(14);
    expect(world.get('player.inventory')).toEqual(['ale', 'ale']);
    expect(hud.string).toBe('Gold: 14    Carrying: ale, ale');
    expect(ui.emotionLabel!.string).toBe('(happy)');
    // After goodbye the evening starts over.
    expect(ui.options).toEqual(EVENING.slice(0, 3));
  });

  test('a line streams in several deltas before the turn ends', async () => {
    const scene = openTavern();
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    const mira = scene.component('Canvas/Mira', C.NPCComponent);
    const deltas: string[] = [];
    mira.node.on(C.NPC_EVENTS.line, (e: { delta: string }) => deltas.push(e.delta));
    ui.onOptionClicked(null, '2'); // "How's business these days?"
    expect(ui.busy).toBe(true);
    expect(ui.optionButtons.every((b) => !b.interactable)).toBe(true);
    expect(ui.playerLabel!.string).toBe("You: How's business these days?");
    await until(() => !ui.busy, 'the turn');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe("Busy as a beehive, and twice as loud. Can't complain!");
    const growing = ui.lineLabel!.history.filter((s) => s !== '' && s !== 'Welcome to the Crooked Lantern, traveller!');
    expect(growing.length).toBeGreaterThan(1);
    for (let i = 1; i < growing.length; i++) expect(growing[i].startsWith(growing[i - 1])).toBe(true);
    // Picking the third line skips the presets past it.
    expect(ui.options[0]).toBe(EVENING[3]);
    expect(ui.optionButtons.every((b) => b.interactable)).toBe(true);
  });

  test('an order the purse cannot pay: TavernGame fails the tool and Mira says so', async () => {
    const scene = openTavern();
    const world = scene.component('World', C.WorldStateStore);
    world.set('player.gold', 4);
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    const turn = await ui.say('Two ales, please.');
    expect(turn!.line).toBe("Your purse is a bit light for that, I'm afraid.");
    expect(turn!.emotion).toBe('worried');
    expect(world.get('player.gold')).toBe(4);
    expect(scene.component('Game', Tavern.TavernGame).answered).toEqual([{ tool: 'take_order', answer: { ok: false, error: 'The player has 4 gold; 2 ale cost 6.' } }]);
  });

  test('typed lines go through the EditBox; blank lines and lines during a turn are ignored', async () => {
    const scene = openTavern();
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    const mira = scene.component('Canvas/Mira', C.NPCComponent);
    const turns: DialogueTurn[] = [];
    mira.node.on(C.NPC_EVENTS.turn, (t: DialogueTurn) => turns.push(t));
    ui.input!.string = '   ';
    ui.onSendClicked();
    expect(ui.busy).toBe(false);
    ui.input!.string = 'Is there anything to eat?';
    ui.onSendClicked();
    expect(ui.input!.string).toBe('');
    expect(ui.busy).toBe(true);
    expect(await ui.say('Goodnight!')).toBeNull(); // busy: ignored
    await until(() => turns.length === 1, 'the typed turn');
    expect(turns[0].line).toBe("Lamb stew's bubbling, 5 gold a bowl. Ale's 3 gold, cider 4.");
    await flush();
    expect(turns).toHaveLength(1);
  });

  test('a reset line event replaces the text; a failed turn frees the buttons and says why', async () => {
    const scene = openTavern();
    const ui = scene.component('Canvas/Dialogue', DialogueUI);
    ui.onLine({ delta: 'Hel', line: 'Hel', isReset: true });
    ui.onLine({ delta: 'lo', line: 'Hello', isReset: false });
    expect(ui.lineLabel!.string).toBe('Hello');
    ui.onLine({ delta: 'Hi', line: 'Hi', isReset: true });
    expect(ui.lineLabel!.string).toBe('Hi');

    const mira = scene.component('Canvas/Mira', C.NPCComponent);
    mira.persona = null;
    mira.rebuild(); // a broken set-up: talk() rejects and npc-error fires
    expect(await ui.say('Hello?')).toBeNull();
    expect(ui.busy).toBe(false);
    expect(ui.playerLabel!.string).toMatch(/no persona asset/);
  });

  test('the guard decides from the situation the button passes, with facts from the world', async () => {
    const scene = openTavern();
    const brain = scene.component('Canvas/Guard', Guard.GuardBrain);
    const decisions = scene.component('Canvas/Guard', C.DecisionComponent);
    expect(decisions.options.map((o) => o.id)).toEqual(['let_in', 'warn', 'alarm']);
    expect((await brain.approach())!.optionId).toBe('let_in');
    expect(brain.statusLabel!.string).toMatch(/^Brann steps aside/);
    brain.onApproachClicked(null, 'A traveller walks up to the gate with a drawn sword.');
    await until(() => brain.lastDecision!.optionId !== 'let_in', 'the second decision');
    expect(brain.lastDecision!.optionId).toBe('alarm');
    expect(brain.statusLabel!.string).toMatch(/^Brann rings the bell/);
    expect((await brain.approach('A traveller staggers up to the gate, singing loudly.'))!.optionId).toBe('warn');
    scene.component('World', C.WorldStateStore).set('player.inventory', ['ale', 'stew', 'cider']);
    expect(brain.facts()).toEqual({ time: 'evening', drinksInHand: 2 });
  });

  test('describeDecision covers fallbacks and unknown ids', () => {
    const d = { optionId: 'warn', reason: '', confidence: 0, isFallback: true, modelCalls: 1 };
    expect(Guard.describeDecision(d)).toMatch(/no time to think/);
    expect(Guard.describeDecision({ ...d, optionId: 'dance', isFallback: false })).toBe('Brann decides: dance.');
  });

  test('the download bar shows the stand-in as ready, then hides', async () => {
    const scene = openTavern();
    const bar = scene.component('Canvas/ModelStatus', Bar.DownloadBar);
    const status = scene.component('Canvas/ModelStatus', C.NanoStatus);
    await until(() => status.status === 'available', 'NanoStatus');
    expect(bar.messageLabel!.string).toMatch(/stand-in/);
    expect(bar.bar!.progress).toBe(1);
    expect(scene.nodes.get('Canvas/ModelStatus/Download')!.active).toBe(false);
    (bar as unknown as Component).runScheduled();
    expect(bar.node.active).toBe(false);
  });

  test('the download bar follows progress, offers the download, and explains an unsupported device', () => {
    const scene = openTavern();
    const bar = scene.component('Canvas/ModelStatus', Bar.DownloadBar);
    const button = scene.nodes.get('Canvas/ModelStatus/Download')!;
    bar.onAvailability({ status: 'downloadable', message: 'The on-device AI model needs a download before first use.' });
    expect(button.active).toBe(true);
    bar.onProgress({ bytesDownloaded: 512 * 1024 * 1024, totalBytes: 1024 * 1024 * 1024, fraction: 0.5 });
    expect(bar.bar!.progress).toBe(0.5);
    expect(bar.messageLabel!.string).toBe('Downloading the AI model… 50% of 1024 MB');
    expect(button.active).toBe(false);
    bar.onProgress({ bytesDownloaded: 3 * 1024 * 1024 });
    expect(bar.bar!.progress).toBe(0.5);
    expect(bar.messageLabel!.string).toBe('Downloading the AI model… 3 MB');
    bar.onAvailability({ status: 'unavailable', message: 'This device cannot run Gemini Nano.' });
    expect(bar.messageLabel!.string).toBe('This device cannot run Gemini Nano.');
    expect(bar.bar!.progress).toBe(0);
    expect(bar.node.active).toBe(true);
  });
});
