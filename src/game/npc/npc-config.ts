/** What an NPC is made from (a new one, or one restored from a save) and what one turn may add. */
import type { SignalLike } from '../../contract/abort';
import type { ExternalToolHandler, ToolChoice, ToolClock } from '../../core/agent';
import type { AgentTool, ToolApproval } from '../../core/tools';
import type { LanguageModel } from '../../contract/language-model';
import type { ImageInput } from '../../contract/image-input';
import type { Persona } from '../persona';
import type { NPCMemoryState } from '../memory';
import type { WorldState } from '../world';
import type { NPCOptions } from './npc-options';

export interface NPCConfig {
  persona: Persona | unknown;
  model: LanguageModel;
  /** The game's tools (local handlers or external, answered by the game). */
  tools?: AgentTool[];
  world?: WorldState;
  options?: NPCOptions;
  /** Restored memory (from a save). */
  memory?: NPCMemoryState;
  /** Restored transcript (from a save). */
  transcript?: unknown;
  /**
   * What tool timeouts count (default wall time); the Cocos components pass engine time, which
   * stops while the game is paused.
   */
  toolClock?: ToolClock;
  /**
   * Looks at every call the NPC's model chose before it runs, after the tool's own `approve`:
   * allow, change the arguments, or refuse with a reason the NPC reads (no more gold than the
   * player has). A component passes one that asks the game through an engine event.
   */
  approveToolCall?: ToolApproval;
}

/** How restore() treats the persona. */
export interface NPCRestoreConfig extends Omit<NPCConfig, 'persona' | 'memory' | 'transcript'> {
  /**
   * The persona the NPC is now (a game's current persona asset): the save gives only memory and
   * conversation. Left out, the save's own persona is used.
   */
  persona?: Persona | unknown;
  /** Take the memory and conversation of a save made by a character of another name. Default false: refused. */
  acceptOtherPersona?: boolean;
}

export interface TalkOptions {
  /** What is happening now; shown to the model for this turn only. */
  situation?: string;
  /** A picture the player shows with the line (a drawn badge), for a model that takes images. */
  image?: ImageInput;
  toolChoice?: ToolChoice;
  signal?: SignalLike;
  /** Answers external tool calls (otherwise answer them through the stream's events). */
  externalTools?: ExternalToolHandler;
}
