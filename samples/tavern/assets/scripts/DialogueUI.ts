/**
 * A simple dialogue box for one NPC: the line grows in a Label as the model writes it
 * (`npc-line` deltas), the emotion shows beside the name, and the player answers with option
 * buttons or types a line into an EditBox. The option buttons show the NPC's suggested replies
 * when it gives some (NPCComponent.playerOptionCount > 0), otherwise the next lines of the
 * evening from `presetLines`.
 */
import { _decorator, Component, Label, Button, EditBox, CCString } from 'cc';
import { NPCComponent, NPC_LINE, NPC_EMOTION, NPC_TURN, NPC_ERROR } from 'db://oam-cocos/index';
import type { DialogueTurn, NPCLineEvent } from 'db://oam-cocos/index';

const { ccclass, property, menu } = _decorator;

@ccclass('tavern.DialogueUI')
@menu('tavern/DialogueUI')
export class DialogueUI extends Component {
  @property({ type: NPCComponent, tooltip: 'The character this box talks to.' })
  npc: NPCComponent | null = null;

  @property({ type: Label, tooltip: 'The NPC\'s name.' })
  speakerLabel: Label | null = null;

  @property({ type: Label, tooltip: 'The NPC\'s current emotion.' })
  emotionLabel: Label | null = null;

  @property({ type: Label, tooltip: 'The NPC\'s line, streamed as it is written.' })
  lineLabel: Label | null = null;

  @property({ type: Label, tooltip: 'What the player said last.' })
  playerLabel: Label | null = null;

  @property({ type: [Button], tooltip: 'Option buttons, in order; each has a Label child.' })
  optionButtons: Button[] = [];

  @property({ type: [Label], tooltip: 'The labels of the option buttons, in the same order.' })
  optionLabels: Label[] = [];

  @property({ type: EditBox, tooltip: 'Free text for the player (optional).' })
  input: EditBox | null = null;

  @property({ type: [CCString], tooltip: 'Lines offered as options when the NPC suggests none, in order.' })
  presetLines: string[] = [];

  /** The text on each option button right now. */
  options: string[] = [];
  /** True while a turn runs: buttons are disabled so the player cannot talk over the NPC. */
  busy = false;
  private nextPreset = 0;
  private line = '';

  onLoad(): void {
    if (!this.npc) {
      console.warn('[tavern] DialogueUI has no NPC set.');
      return;
    }
    const node = this.npc.node;
    node.on(NPC_LINE, this.onLine, this);
    node.on(NPC_EMOTION, this.onEmotion, this);
    node.on(NPC_TURN, this.onTurn, this);
    node.on(NPC_ERROR, this.onError, this);
  }

  start(): void {
    const persona = this.npc && this.npc.persona ? this.npc.persona.json : null;
    const name = persona && typeof persona.name === 'string' ? persona.name : 'NPC';
    this.setText(this.speakerLabel, name);
    if (persona && typeof persona.greeting === 'string') this.showLine(persona.greeting);
    if (persona && typeof persona.defaultEmotion === 'string') this.setText(this.emotionLabel, `(${persona.defaultEmotion})`);
    this.showOptions([]);
  }

  onDestroy(): void {
    if (this.npc && this.npc.node && this.npc.node.isValid) this.npc.node.targetOff(this);
  }

  /** Says `line` to the NPC. Ignored while a turn runs or when the line is blank. */
  say(line: string): Promise<DialogueTurn | null> {
    const text = (line || '').trim();
    if (!this.npc || this.busy || !text) return Promise.resolve(null);
    // Picking a line of the evening moves the presets on past it.
    const preset = this.presetLines.indexOf(text);
    if (preset >= this.nextPreset) this.nextPreset = preset + 1;
    this.setBusy(true);
    this.setText(this.playerLabel, `You: ${text}`);
    this.showLine('');
    // npc-turn / npc-error update the box; the promise is for callers that want the turn.
    return this.npc.talk(text).then((turn) => turn, () => null);
  }

  /** Button handler (Click Events: DialogueUI.onOptionClicked, custom data = the button index). */
  onOptionClicked(_event: unknown, customEventData: string): void {
    const index = parseInt(customEventData, 10);
    const text = this.options[index];
    if (text) void this.say(text);
  }

  /** Button / EditBox-return handler: sends what the player typed. */
  onSendClicked(): void {
    if (!this.input) return;
    const text = this.input.string;
    if (!text.trim() || this.busy) return;
    this.input.string = '';
    void this.say(text);
  }

  /** `npc-line`: append the new text; a reset (the model retried) replaces what is shown. */
  onLine(event: NPCLineEvent): void {
    this.showLine(event.isReset ? event.line : this.line + event.delta);
  }

  onEmotion(emotion: string): void {
    this.setText(this.emotionLabel, `(${emotion})`);
  }

  onTurn(turn: DialogueTurn): void {
    // The finished line is authoritative (a fallback line arrives only here).
    this.showLine(turn.line);
    this.setText(this.emotionLabel, `(${turn.emotion})`);
    this.setBusy(false);
    if (turn.endsConversation) {
      this.nextPreset = 0;
      this.setText(this.playerLabel, '(The conversation is over. Talk again to start anew.)');
    }
    this.showOptions(turn.playerOptions || []);
  }

  onError(error: { message: string }): void {
    this.setBusy(false);
    this.setText(this.playerLabel, `(${error.message})`);
    this.showOptions([]);
  }

  private showLine(text: string): void {
    this.line = text;
    this.setText(this.lineLabel, text);
  }

  /** Fills the buttons with the NPC's suggestions, or the next preset lines; hides the rest. */
  private showOptions(suggested: string[]): void {
    const count = this.optionButtons.length;
    let options = suggested.filter((s) => s && s.trim()).slice(0, count);
    if (options.length === 0 && this.presetLines.length > 0) {
      options = [];
      for (let i = 0; i < count && this.nextPreset + i < this.presetLines.length; i++) options.push(this.presetLines[this.nextPreset + i]);
    }
    this.options = options;
    for (let i = 0; i < count; i++) {
      const button = this.optionButtons[i];
      if (!button) continue;
      button.node.active = i < options.length;
      this.setText(this.optionLabels[i] || null, options[i] || '');
    }
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    for (const button of this.optionButtons) if (button) button.interactable = !busy;
  }

  private setText(label: Label | null, text: string): void {
    if (label) label.string = text;
  }
}
