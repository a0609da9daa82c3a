/** NPC settings, their defaults (tuned for speed on a phone) and their checks. */
import { AgentError } from '../../contract/errors';
import type { ToolChoice } from '../../core/agent';
import { EMOTIONS, isEmotion, type Emotion } from '../emotion';
import { parseMemoryToolSelection, type MemoryToolSelection } from '../memory';
import { DEFAULT_SAMPLE_LINE_TOKENS } from '../persona/sample-lines';

export type NPCReplyFormat = 'automatic' | 'structured' | 'text';

/** The forms `memoryTools` accepts: a switch, a word, the tool names, or each kind by name. */
export type MemoryToolsOption =
  | boolean
  | 'all'
  | 'none'
  | 'remember_fact'
  | 'change_relationship'
  | Array<'remember_fact' | 'change_relationship'>
  | { facts?: boolean; relationship?: boolean };

export interface NPCOptions {
  /** Used when there is no groundingTool. Default 'auto'. */
  toolChoice?: ToolChoice;
  /** Forces this tool on the first step of every turn (e.g. check_menu before quoting a price). */
  groundingTool?: string;
  /** Default 2 / 6 per turn. */
  maxToolRounds?: number;
  maxToolCalls?: number;
  /** World paths the model may read (default [""] = everything when a world is given; [] = no read tool). */
  worldReadable?: string[];
  /** World paths the model may change (default [] = no update tool). */
  worldWritable?: string[];
  /** World paths summarised into every turn's note. */
  worldContextPaths?: string[];
  /** Which memory tools the NPC gets (default none); anything else is refused with invalid_request. */
  memoryTools?: MemoryToolsOption;
  maxFacts?: number;
  maxRelationshipChange?: number;
  /** Secrets are left out until the relationship reaches this; null keeps them guarded in the prompt. Default 50. */
  secretsUnlockAtRelationship?: number | null;
  replyFormat?: NPCReplyFormat;
  /** Emotions the model may choose (default all 16). */
  emotions?: Emotion[];
  /** Player reply suggestions per turn, 0–4. Default 0: each costs the player about a second on a phone. */
  playerOptionCount?: number;
  canEndConversation?: boolean;
  extraInstructions?: string;
  /** Tokens the persona's sample lines may take in the prefix (default 120; 0 leaves them out). */
  sampleLineTokens?: number;
  /** Summarise older turns into memory after this many turns (0 = never). Default 8, keeping 2. */
  compactAfterTurns?: number;
  keepRecentTurns?: number;
  /** Use an authored fallback line instead of failing when the model is blocked or fails. Default true. */
  fallbackOnFailure?: boolean;
  fallbackLines?: string[];
  temperature?: number;
  maxResponseTokens?: number;
  barkMaxTokens?: number;
  /** false: the seed library's separate reply step (for models that write poor replies inside JSON). */
  inlineReplies?: boolean;
  /** How long an external tool waits for the game's answer (ms). Default 30 s. */
  externalToolTimeoutMs?: number;
  /** Local tool timeout (ms). Default 10 s. */
  toolTimeoutMs?: number;
  /** Scheduler priority of this NPC's turns (default 100: the NPC the player is talking to). */
  priority?: number;
}

export interface ResolvedNPCOptions {
  toolChoice: ToolChoice;
  groundingTool?: string;
  maxToolRounds: number;
  maxToolCalls: number;
  worldReadable: string[];
  worldWritable: string[];
  worldContextPaths: string[];
  memoryTools: MemoryToolSelection;
  maxFacts: number;
  maxRelationshipChange: number;
  secretsUnlockAtRelationship: number | null;
  replyFormat: NPCReplyFormat;
  emotions: Emotion[];
  playerOptionCount: number;
  canEndConversation: boolean;
  extraInstructions?: string;
  sampleLineTokens: number;
  compactAfterTurns: number;
  keepRecentTurns: number;
  fallbackOnFailure: boolean;
  fallbackLines: string[];
  temperature?: number;
  maxResponseTokens?: number;
  barkMaxTokens: number;
  inlineReplies: boolean;
  externalToolTimeoutMs: number;
  toolTimeoutMs: number;
  priority: number;
}

export const DEFAULT_FALLBACK_LINES = ['Hmm, give me a moment.', 'Sorry, what was that?', 'Let me think on that.'];

/** The whole-number options: each one's default and the range it is checked against. */
const WHOLE_OPTIONS = {
  maxToolRounds: { byDefault: 2, min: 0, max: 16 },
  maxToolCalls: { byDefault: 6, min: 0, max: 64 },
  maxFacts: { byDefault: 12, min: 0, max: 200 },
  maxRelationshipChange: { byDefault: 10, min: 0, max: 200 },
  playerOptionCount: { byDefault: 0, min: 0, max: 4 },
  sampleLineTokens: { byDefault: DEFAULT_SAMPLE_LINE_TOKENS, min: 0, max: 2000 },
  compactAfterTurns: { byDefault: 8, min: 0, max: 1000 },
  keepRecentTurns: { byDefault: 2, min: 0, max: 100 },
  barkMaxTokens: { byDefault: 48, min: 8, max: 512 },
  externalToolTimeoutMs: { byDefault: 30_000, min: 0, max: 3_600_000 },
  toolTimeoutMs: { byDefault: 10_000, min: 1, max: 3_600_000 },
} satisfies Partial<Record<keyof NPCOptions, { byDefault: number; min: number; max: number }>>;

/** A whole number option within its range; its default when it is not given. */
function whole(options: NPCOptions, name: keyof typeof WHOLE_OPTIONS): number {
  const value = options[name];
  const { byDefault, min, max } = WHOLE_OPTIONS[name];
  if (value === undefined) return byDefault;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new AgentError(
      'invalid_request',
      `NPC option ${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function finite(name: string, value: number | undefined, def: number): number {
  if (value === undefined) return def;
  if (typeof value !== 'number' || !isFinite(value)) {
    throw new AgentError('invalid_request', `NPC option ${name} must be a number; got ${JSON.stringify(value)}.`);
  }
  return value;
}

function paths(name: string, value: unknown, def: string[]): string[] {
  if (value === undefined) return def;
  if (!Array.isArray(value) || value.some((path) => typeof path !== 'string')) {
    throw new AgentError('invalid_request', `NPC option ${name} must be a list of world paths (strings).`);
  }
  return value.slice();
}

function replyFormat(value: NPCReplyFormat | undefined): NPCReplyFormat {
  if (value !== undefined && ['automatic', 'structured', 'text'].indexOf(value) < 0) {
    throw new AgentError(
      'invalid_request',
      `NPC option replyFormat must be "automatic", "structured" or "text"; got ${JSON.stringify(value)}.`,
    );
  }
  return value ?? 'automatic';
}

function emotionList(value: Emotion[] | undefined): Emotion[] {
  const emotions = value ?? EMOTIONS.slice();
  if (!Array.isArray(emotions) || emotions.length === 0 || emotions.some((emotion) => !isEmotion(emotion))) {
    throw new AgentError('invalid_request', `NPC option emotions must be a non-empty list of: ${EMOTIONS.join(', ')}.`);
  }
  return emotions.slice();
}

/** null keeps the secrets guarded in the prompt at every relationship; the default is 50. */
function secretsThreshold(value: number | null | undefined): number | null {
  const threshold = value === undefined ? 50 : value;
  if (threshold !== null && (typeof threshold !== 'number' || !(threshold >= -100 && threshold <= 100))) {
    throw new AgentError(
      'invalid_request',
      'NPC option secretsUnlockAtRelationship must be null or a number from -100 to 100.',
    );
  }
  return threshold;
}

function fallbackLines(lines: string[] | undefined): string[] {
  if (
    lines !== undefined &&
    (!Array.isArray(lines) || lines.some((line) => typeof line !== 'string' || !line.trim()))
  ) {
    throw new AgentError('invalid_request', 'NPC option fallbackLines must be a list of non-empty strings.');
  }
  return (lines ?? []).map((line) => line.trim());
}

export function resolveNPCOptions(options: NPCOptions = {}): ResolvedNPCOptions {
  // Checked first, in this order, so the error for a set-up with several mistakes stays the same.
  const format = replyFormat(options.replyFormat);
  const emotions = emotionList(options.emotions);
  const threshold = secretsThreshold(options.secretsUnlockAtRelationship);
  const lines = fallbackLines(options.fallbackLines);
  const resolved: ResolvedNPCOptions = {
    toolChoice: options.toolChoice ?? 'auto',
    maxToolRounds: whole(options, 'maxToolRounds'),
    maxToolCalls: whole(options, 'maxToolCalls'),
    worldReadable: paths('worldReadable', options.worldReadable, ['']),
    worldWritable: paths('worldWritable', options.worldWritable, []),
    worldContextPaths: paths('worldContextPaths', options.worldContextPaths, []),
    memoryTools: parseMemoryToolSelection(options.memoryTools ?? 'none'),
    maxFacts: whole(options, 'maxFacts'),
    maxRelationshipChange: whole(options, 'maxRelationshipChange'),
    secretsUnlockAtRelationship: threshold,
    replyFormat: format,
    emotions,
    playerOptionCount: whole(options, 'playerOptionCount'),
    canEndConversation: options.canEndConversation ?? true,
    sampleLineTokens: whole(options, 'sampleLineTokens'),
    compactAfterTurns: whole(options, 'compactAfterTurns'),
    keepRecentTurns: whole(options, 'keepRecentTurns'),
    fallbackOnFailure: options.fallbackOnFailure ?? true,
    fallbackLines: lines,
    barkMaxTokens: whole(options, 'barkMaxTokens'),
    inlineReplies: options.inlineReplies ?? true,
    externalToolTimeoutMs: whole(options, 'externalToolTimeoutMs'),
    toolTimeoutMs: whole(options, 'toolTimeoutMs'),
    priority: finite('priority', options.priority, 100),
  };
  if (options.groundingTool !== undefined) resolved.groundingTool = options.groundingTool;
  if (options.extraInstructions !== undefined) resolved.extraInstructions = options.extraInstructions;
  if (options.temperature !== undefined) resolved.temperature = options.temperature;
  if (options.maxResponseTokens !== undefined) resolved.maxResponseTokens = options.maxResponseTokens;
  return resolved;
}
