/**
 * One conversation on the page: the NPC of an NPC profile (its persona, tools, world and
 * options; the tavern is Mira's profile), or of an NPC picked in the editor. Tools the
 * designer chose to answer by hand are turned into external tools, so the turn waits for the
 * answer typed in the panel. The NPC's memory can be edited between turns (the state panel).
 */
import {
  AgentError,
  AgentTool,
  NPC,
  WorldState,
  attitude,
  resolveNPCOptions,
  type DialogueStream,
  type JsonValue,
  type LanguageModel,
  type NPCMemoryState,
  type NPCOptions,
  type NPCProfileParts,
  type Persona,
} from '../../src';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import { applyEvent, failTurn, newTurnView, type TurnView } from './turn-view';
import type { PreviewSessionExport } from './conversation-export';

/** A tool the page answers by hand (declared on an NPC component, or any tavern tool). */
export interface ExtraToolDeclaration {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  /** The declared parameters schema was not a JSON object (the game's NPC refuses such a tool). */
  parametersError?: string;
}

export interface PreviewSetup {
  persona: Persona;
  model: LanguageModel;
  /**
   * The NPC profile to play (its tools, world, options and starting memory; `persona` is the
   * one played, usually the profile's). Without it and without `npcOptions`: the tavern's.
   */
  profile?: NPCProfileParts;
  /** Names of tavern tools to answer from the panel instead of running their game code. */
  answerByHand?: string[];
  /** More tools, all answered from the panel. */
  extraTools?: ExtraToolDeclaration[];
  /** How long an external tool waits for the panel (default 5 minutes: a person is typing). */
  externalToolTimeoutMs?: number;
  /**
   * The options of an NPC picked in the editor (its NPCComponent's). With them the session runs
   * that NPC as the game does: these options instead of the tavern's, no tavern tools.
   */
  npcOptions?: NPCOptions;
  /** The NPC's world (its WorldStateStore's initial state) instead of the tavern's. */
  initialWorld?: object;
  /**
   * The longest a turn may wait on the model (default 45 s), time spent waiting for a tool
   * answered by hand not counted: a server that accepts and never answers ends the turn with
   * a message instead of leaving "…" for minutes.
   */
  turnWaitMs?: number;
}

/** What the NPC knows and feels now, for the state panel. */
export interface NpcStateView {
  relationship: number;
  /** The attitude word for it ("friendly", "neutral"…). */
  attitude: string;
  /** The relationship at which secrets unlock, or null when they never do / are always told. */
  secretsUnlockAt: number | null;
  secretsUnlocked: boolean;
  /** The persona's relationship stage now (name and band), when it has stages. */
  stage?: { name: string; from: number; to: number };
  facts: string[];
  summary: string;
  /** Emotion per finished turn, oldest first ('' for a turn without one). */
  emotions: string[];
}

export interface WorldChangeView {
  path: string;
  oldValue?: JsonValue;
  newValue?: JsonValue;
  /** 1-based number of the turn that made the change (0: before the first turn, or the designer's edit). */
  turn: number;
  /** The designer changed it in the panel. */
  byDesigner?: boolean;
}

export interface ToolInfo {
  name: string;
  description: string;
  external: boolean;
}

/** The NPC options of the tavern, as in the demo: memory tools, a secret, the purse in view. */
export const TAVERN_NPC_OPTIONS: NPCOptions = {
  memoryTools: 'all',
  secretsUnlockAtRelationship: 10,
  worldContextPaths: ['player.gold', 'time'],
};

const DEFAULT_TURN_WAIT_MS = 45000;

/** A change the designer makes to the NPC's memory from the state panel. */
export interface MemoryEdit {
  relationship?: number;
  facts?: string[];
  summary?: string;
}

export class PreviewSession {
  readonly world: WorldState;
  /** Replaced (same conversation, edited memory) when the designer edits the state panel. */
  npc: NPC;
  readonly tools: ToolInfo[];
  readonly turns: TurnView[] = [];
  readonly worldChanges: WorldChangeView[] = [];
  private current: DialogueStream | null = null;
  private readonly stopWatching: () => void;
  private readonly turnWaitMs: number;
  private readonly persona: Persona;
  private readonly unlockAt: number | null;
  /** A relationship the designer set since the last turn: the next turn records it (a saved test replays it). */
  private relationshipEdit: number | undefined;
  /** What the NPC is built from besides its persona and memory, to rebuild it after an edit. */
  private readonly config: Pick<ConstructorParameters<typeof NPC>[0], 'model' | 'world' | 'tools' | 'options'>;
  /** True while the designer's own edit is applied, so the change log says who made it. */
  private editing = false;

  /** Throws an AgentError (invalid_request) when the persona or a tool is not valid. */
  constructor(setup: PreviewSetup) {
    if (
      setup.initialWorld !== undefined &&
      (typeof setup.initialWorld !== 'object' || setup.initialWorld === null || Array.isArray(setup.initialWorld))
    ) {
      throw new AgentError('invalid_request', 'The initial world must be a JSON object.');
    }
    const profile = setup.profile;
    this.world = profile
      ? (profile.world ?? new WorldState({}))
      : setup.initialWorld
        ? new WorldState(setup.initialWorld)
        : createTavernWorld();
    const byHand = new Set(setup.answerByHand ?? []);
    const gameTools = profile ? profile.tools : setup.npcOptions ? [] : tavernTools(this.world);
    const tools = gameTools.map((tool) => (byHand.has(tool.name) ? asExternal(tool) : tool));
    for (const extra of setup.extraTools ?? []) {
      if (tools.some((tool) => tool.name === extra.name))
        throw new AgentError('invalid_request', `Tool "${extra.name}" is declared twice.`);
      // As in the game, where NPCComponent refuses the tool, rather than previewing a different NPC.
      if (extra.parametersError)
        throw new AgentError('invalid_schema', `Tool "${extra.name}": ${extra.parametersError}.`);
      tools.push(
        AgentTool.external({ name: extra.name, description: extra.description, parameters: extra.parameters }),
      );
    }
    this.tools = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      external: tool.execution === 'external',
    }));
    const baseOptions = profile ? profile.options : (setup.npcOptions ?? TAVERN_NPC_OPTIONS);
    this.config = {
      model: setup.model,
      world: this.world,
      tools,
      options: { ...baseOptions, externalToolTimeoutMs: setup.externalToolTimeoutMs ?? 300000 },
    };
    this.npc = new NPC({ persona: setup.persona, ...this.config, memory: profile?.memory });
    this.turnWaitMs = setup.turnWaitMs ?? DEFAULT_TURN_WAIT_MS;
    this.persona = setup.persona;
    this.unlockAt = resolveNPCOptions(baseOptions).secretsUnlockAtRelationship;
    this.stopWatching = this.world.onChange((change) => {
      this.worldChanges.push({
        path: change.path,
        oldValue: change.oldValue,
        newValue: change.newValue,
        turn: this.editing ? 0 : this.turns.length,
        byDesigner: this.editing || undefined,
      });
    });
  }

  get isTalking(): boolean {
    return this.current !== null;
  }

  /**
   * Runs one turn; `onUpdate` is called with the turn's view after every event. Resolves
   * with the finished view (a failure is recorded in `view.error`, never thrown).
   */
  async talk(line: string, onUpdate: (view: TurnView) => void = () => undefined): Promise<TurnView> {
    if (this.current)
      throw new AgentError(
        'invalid_request',
        'Wait for the NPC to finish this turn (or cancel it) before talking again.',
      );
    const view = newTurnView(line);
    if (this.relationshipEdit !== undefined) view.relationshipSet = this.relationshipEdit;
    this.relationshipEdit = undefined;
    this.turns.push(view);
    const stream = this.npc.talkStream(line);
    this.current = stream;
    onUpdate(view);
    // The wait cap runs while the model works, and pauses while a person types a tool's answer.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(
        () =>
          stream.cancel(
            `No answer from the model within ${Math.round(this.turnWaitMs / 1000)} s (${view.steps.length} step${view.steps.length === 1 ? '' : 's'} sent). Check that the server is running and answering, or switch to the stand-in.`,
          ),
        this.turnWaitMs,
      );
    };
    arm();
    try {
      for await (const event of stream.events) {
        if (event.type === 'externalToolCall' && timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
        // A person answered a hand-played tool: the model's time starts again.
        if (event.type === 'toolResult' && view.tools.some((tool) => tool.external && tool.id === event.record.call.id))
          arm();
        applyEvent(view, event);
        onUpdate(view);
      }
    } catch (error) {
      failTurn(view, AgentError.from(error));
      onUpdate(view);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.current = null;
    }
    return view;
  }

  /** The NPC's relationship, memory and emotions now. */
  state(): NpcStateView {
    const memory = this.npc.saveState().memory;
    const stage = this.npc.relationshipStage;
    const stageSecrets = this.npc.persona.stages.find((candidate) => candidate.secrets.length > 0);
    // With stages, a secret unlocks with the first stage that holds one.
    const unlockAt = this.unlockAt ?? (stageSecrets ? stageSecrets.from : null);
    return {
      relationship: memory.relationship,
      attitude: attitude(memory.relationship),
      secretsUnlockAt: unlockAt,
      secretsUnlocked: unlockAt !== null && memory.relationship >= unlockAt,
      stage: stage ? { name: stage.name, from: stage.from, to: stage.to } : undefined,
      facts: memory.facts.slice(),
      summary: memory.summary ?? '',
      emotions: this.turns.filter((turn) => turn.done).map((turn) => turn.emotion ?? ''),
    };
  }

  /**
   * Changes the NPC's memory between turns (relationship, facts, summary): the conversation so
   * far stays, and the next turn sees the new memory (a stage, a secret). Returns the problem,
   * or '' when it was applied; nothing changes on a problem.
   */
  editMemory(edit: MemoryEdit): string {
    if (this.current) return 'Wait for the NPC to finish this turn before changing its memory.';
    const saved = this.npc.saveState();
    const memory: NPCMemoryState = { ...saved.memory };
    if (edit.relationship !== undefined) {
      if (!Number.isInteger(edit.relationship) || Math.abs(edit.relationship) > 100)
        return 'The relationship is a whole number from -100 to 100.';
      memory.relationship = edit.relationship;
    }
    if (edit.facts !== undefined) memory.facts = edit.facts.map((fact) => fact.trim()).filter(Boolean);
    if (edit.summary !== undefined) memory.summary = edit.summary.trim();
    let next: NPC;
    try {
      next = NPC.restore({ ...saved, memory }, { persona: this.persona, ...this.config });
    } catch (error) {
      return AgentError.from(error).message;
    }
    this.npc.close();
    this.npc = next;
    if (edit.relationship !== undefined) this.relationshipEdit = edit.relationship;
    return '';
  }

  /**
   * Sets a world value typed in the panel: JSON when it parses, else text; the stored type is
   * kept where the text fits it ("45" for a number), and a value that does not fit it (a word
   * for a number) is refused. Returns the problem, or '' when it was set.
   */
  setWorldValue(path: string, text: string): string {
    // Not while the NPC talks: its tools may be reading or writing the same values.
    if (this.current) return 'Wait for the NPC to finish this turn before changing the world.';
    this.editing = true;
    try {
      const before = this.world.get(path);
      const parsed = parseAnswer(text);
      const value =
        typeof before === 'number' && typeof parsed === 'string' && /^-?\d+(\.\d+)?$/.test(parsed.trim())
          ? Number(parsed)
          : parsed;
      // The game's code reads this value as its type: a word where a number was would break it.
      if ((typeof before === 'number' || typeof before === 'boolean') && typeof value !== typeof before)
        return `${path} is a ${typeof before}: type a ${typeof before === 'number' ? 'number, e.g. 12' : 'true or false'} (not ${JSON.stringify(text.trim())}).`;
      this.world.set(path, value as JsonValue);
      return '';
    } catch (error) {
      return AgentError.from(error).message;
    } finally {
      this.editing = false;
    }
  }

  /** The conversation as a file the designer can keep and replay against an edited persona. */
  exportConversation(): PreviewSessionExport {
    return {
      type: 'oam-cocos.PreviewSession',
      version: 1,
      persona: JSON.parse(JSON.stringify(this.persona)) as Persona,
      turns: this.turns
        .filter((turn) => turn.done)
        .map((turn) => ({
          say: turn.player,
          line: turn.line,
          emotion: turn.emotion ?? '',
          tools: turn.tools.map((tool) => tool.name),
          ...(turn.relationshipSet !== undefined ? { relationship: turn.relationshipSet } : {}),
        })),
    };
  }

  /** Answers a waiting external tool call; the text is read as JSON when it parses, else as text. */
  answer(callId: string, text: string): boolean {
    if (!this.current) return false;
    return this.current.submit(callId, parseAnswer(text));
  }

  cancel(): void {
    this.current?.cancel('Cancelled from the preview.');
  }

  close(): void {
    this.cancel();
    this.stopWatching();
    this.npc.close();
  }
}

export function parseAnswer(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

function asExternal(tool: AgentTool): AgentTool {
  return AgentTool.external({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    timeoutMs: tool.timeoutMs,
  });
}
