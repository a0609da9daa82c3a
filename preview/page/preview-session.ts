/**
 * One conversation on the page: the NPC with a persona and a model, in the sample tavern's
 * world with its tools. Tools the designer chose to answer by hand are turned into external
 * tools, so the turn waits for the answer typed in the panel.
 */
import {
  AgentError, AgentTool, NPC, WorldState,
  type DialogueStream, type JsonValue, type LanguageModel, type NPCOptions, type Persona, type WorldStateChange,
} from '../../src';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';
import { applyEvent, failTurn, newTurnView, type TurnView } from './turn-view';

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
}

export interface WorldChangeView {
  path: string;
  oldValue?: JsonValue;
  newValue?: JsonValue;
  /** 1-based number of the turn that made the change (0: before the first turn). */
  turn: number;
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

export class PreviewSession {
  readonly world: WorldState;
  readonly npc: NPC;
  readonly tools: ToolInfo[];
  readonly turns: TurnView[] = [];
  readonly worldChanges: WorldChangeView[] = [];
  private current: DialogueStream | null = null;
  private readonly stopWatching: () => void;

  /** Throws an AgentError (invalid_request) when the persona or a tool is not valid. */
  constructor(setup: PreviewSetup) {
    if (setup.initialWorld !== undefined && (typeof setup.initialWorld !== 'object' || setup.initialWorld === null || Array.isArray(setup.initialWorld))) {
      throw new AgentError('invalid_request', 'The initial world must be a JSON object.');
    }
    this.world = setup.initialWorld ? new WorldState(setup.initialWorld) : createTavernWorld();
    const byHand = new Set(setup.answerByHand ?? []);
    const gameTools = setup.npcOptions ? [] : tavernTools(this.world);
    const tools = gameTools.map((t) => (byHand.has(t.name) ? asExternal(t) : t));
    for (const extra of setup.extraTools ?? []) {
      if (tools.some((t) => t.name === extra.name)) throw new AgentError('invalid_request', `Tool "${extra.name}" is declared twice.`);
      // As in the game, where NPCComponent refuses the tool, rather than previewing a different NPC.
      if (extra.parametersError) throw new AgentError('invalid_schema', `Tool "${extra.name}": ${extra.parametersError}.`);
      tools.push(AgentTool.external({ name: extra.name, description: extra.description, parameters: extra.parameters }));
    }
    this.tools = tools.map((t) => ({ name: t.name, description: t.description, external: t.execution === 'external' }));
    this.npc = new NPC({
      persona: setup.persona,
      model: setup.model,
      world: this.world,
      tools,
      options: { ...(setup.npcOptions ?? TAVERN_NPC_OPTIONS), externalToolTimeoutMs: setup.externalToolTimeoutMs ?? 300000 },
    });
    this.stopWatching = this.world.onChange((c) => {
      this.worldChanges.push({ path: c.path, oldValue: c.oldValue, newValue: c.newValue, turn: this.turns.length });
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
    if (this.current) throw new AgentError('invalid_request', 'Wait for the NPC to finish this turn (or cancel it) before talking again.');
    const view = newTurnView(line);
    this.turns.push(view);
    const stream = this.npc.talkStream(line);
    this.current = stream;
    onUpdate(view);
    try {
      for await (const event of stream.events) {
        applyEvent(view, event);
        onUpdate(view);
      }
    } catch (e) {
      failTurn(view, AgentError.from(e));
      onUpdate(view);
    } finally {
      this.current = null;
    }
    return view;
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
  return AgentTool.external({ name: tool.name, description: tool.description, parameters: tool.parameters, timeoutMs: tool.timeoutMs });
}
