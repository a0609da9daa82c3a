/**
 * A character for players whose device has no model: it answers from a line bank (its lines by
 * intent, written or baked ahead of time), in the format the NPC's prompt asks for, through the
 * same agent and tools as a real model. It matches the player's words to an intent, keeps to the
 * relationship band, the secret's unlock and the game values a line asks for, does not say a line
 * again within the last few turns, and makes the calls a line carries (an order line its
 * `take_order`), so the game's rules still run. Deterministic and instant.
 */
import type { SignalLike } from '../contract/abort';
import type {
  GenerationChunk,
  GenerationRequest,
  LanguageModel,
  ModelAvailability,
  ModelCapabilities,
} from '../contract/language-model';
import { DEFAULT_CAPABILITIES } from '../contract/language-model';
import { renderedConversation } from '../core/prompt/render-conversation';
import { IntentMatcher } from '../game/bank/intent-matcher';
import { numberIn } from '../game/bank/count-in';
import { parseLineBank, type BankLine, type LineBank, type WorldCondition } from '../game/bank/line-bank';
import { KeywordModel, type KeywordContext, type KeywordRule } from './keyword-model';

export interface BankModelOptions {
  /** A line is not said again within this many turns (default 5). */
  noRepeatTurns?: number;
  /** How alike the player's words must be to an intent's examples (0…1, default 0.3). */
  threshold?: number;
  chunkDelayMs?: number;
}

/** What the bank made of a turn, for QA views and tests. */
export interface BankChoice {
  said: string;
  /** The matched intent, or undefined when none matched (a fallback line answered). */
  intent?: string;
  score: number;
  line: string;
}

/** Said when the bank has nothing that fits and no fallbacks: in character for anyone, never developer text. */
const LAST_RESORT: BankLine = { line: 'Hm.', emotion: 'neutral' };

export class BankModel implements LanguageModel {
  readonly capabilities: ModelCapabilities;
  readonly bank: LineBank;
  /** Every turn's choice, oldest first. */
  readonly choices: BankChoice[] = [];
  private readonly inner: KeywordModel;
  private readonly matcher: IntentMatcher;
  private readonly noRepeatTurns: number;
  /** The lines said, newest last, with the turn each was said in. */
  private readonly said: Array<{ line: string; turn: number }> = [];
  private turn = 0;
  private current: { key: string; rule: KeywordRule } | undefined;

  /** Throws invalid_request listing every problem of a bank that does not validate. */
  constructor(bank: LineBank | unknown, options: BankModelOptions = {}) {
    this.bank = parseLineBank(bank);
    this.matcher = new IntentMatcher(this.bank.intents, options.threshold ?? 0.3);
    this.noRepeatTurns = Math.max(0, Math.floor(options.noRepeatTurns ?? 5));
    this.capabilities = { ...DEFAULT_CAPABILITIES, modelName: `line-bank:${this.bank.character}` };
    this.inner = new KeywordModel({
      rules: [],
      // A bank without barks barks its fallbacks (never the stand-in's "not sure what you mean").
      barks:
        this.bank.barks && this.bank.barks.length > 0
          ? this.bank.barks
          : (this.bank.fallbacks ?? [])
              .map((line) => line.line)
              .concat(LAST_RESORT.line)
              .slice(0, 50),
      chunkDelayMs: options.chunkDelayMs ?? 0,
      capabilities: this.capabilities,
      choose: (ctx) => this.choose(ctx),
    });
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve({ status: 'available' });
  }

  generate(request: GenerationRequest, signal?: SignalLike): AsyncIterable<GenerationChunk> {
    return this.inner.generate(request, signal);
  }

  /** One choice per turn: the later steps of the same turn (after a tool's result) keep it. */
  private choose(ctx: KeywordContext): KeywordRule {
    const key = turnKey(ctx);
    if (this.current && this.current.key === key) return this.current.rule;
    this.turn++;
    const match = this.matcher.match(ctx.said);
    const facts = readFacts(ctx.prompt);
    const fits = (line: BankLine) => fitsFacts(line, facts);
    let candidates = match ? this.bank.lines.filter((line) => line.intent === match.intent && fits(line)) : [];
    if (candidates.length === 0) candidates = (this.bank.fallbacks ?? []).filter(fits);
    // A line held to a secret, a band or game values is said first once it fits: an unlocked
    // secret or a friend's greeting is the point of writing it.
    candidates = candidates
      .map((line, index) => ({ line, index, rank: specificity(line) }))
      .sort((left, right) => right.rank - left.rank || left.index - right.index)
      .map((entry) => entry.line);
    const line = candidates.length > 0 ? this.leastRecent(candidates) : LAST_RESORT;
    this.said.push({ line: line.line, turn: this.turn });
    this.choices.push({ said: ctx.said, intent: match?.intent, score: match?.score ?? 0, line: line.line });
    const count = numberIn(ctx.said) ?? 1;
    const calls = (line.calls ?? []).map((call) => ({ name: call.name, args: withCount(call.args ?? {}, count) }));
    const rule: KeywordRule = {
      // A call the game refused (`Error: …` as its output) turns the line into its refusal.
      reply: (turn) => {
        const refused = turn.toolResults.some(
          (result) => calls.some((call) => call.name === result.tool) && result.output.startsWith('Error:'),
        );
        const said = refused && line.ifRefused ? line.ifRefused : line;
        return { emotion: said.emotion ?? line.emotion ?? 'neutral', line: said.line, end: refused ? false : line.end };
      },
      tools: calls,
    };
    this.current = { key, rule };
    return rule;
  }

  /** The first line not said in the last turns; when all were, the one said longest ago. */
  private leastRecent(lines: BankLine[]): BankLine {
    const lastSaid = (line: BankLine) => {
      for (let index = this.said.length - 1; index >= 0; index--)
        if (this.said[index].line === line.line) return this.said[index].turn;
      return -Infinity;
    };
    const fresh = lines.find((line) => this.turn - lastSaid(line) > this.noRepeatTurns);
    if (fresh) return fresh;
    return lines.reduce((oldest, line) => (lastSaid(line) < lastSaid(oldest) ? line : oldest), lines[0]);
  }
}

function withCount(args: Record<string, unknown>, count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) out[key] = value === '{count}' ? count : value;
  return out;
}

/** The same for every step of one turn: the player's words and how many lines came before them. */
function turnKey(ctx: KeywordContext): string {
  const conversation = renderedConversation(ctx.prompt) ?? ctx.prompt;
  const at = conversation.lastIndexOf(`: ${ctx.said}`);
  const before = at < 0 ? 0 : conversation.slice(0, at).split('\n').length;
  return `${before}\u0000${ctx.said}`;
}

interface TurnFacts {
  relationship: number;
  trusted: boolean;
  /** Game values the prompt's game state shows, by dot path, as text. */
  world: Map<string, string>;
}

/** What the NPC's own note says this turn: the relationship, the unlocked secret, the game state. */
function readFacts(whole: string): TurnFacts {
  // Only the NPC's own note, before the conversation: a player who types "You trust the player…"
  // must not unlock anything.
  const at = whole.indexOf('\n\nConversation:\n');
  const prompt = whole.startsWith('Conversation:\n') ? '' : at >= 0 ? whole.slice(0, at) : whole;
  const relation = /\((-?\d+) on -100\.\.100\)/.exec(prompt);
  const world = new Map<string, string>();
  const state = /(?:^|\n)Game state:\n((?:[^\n]+\n?)+)/.exec(prompt);
  if (state) {
    for (const row of state[1].split('\n')) {
      const colon = row.indexOf(': ');
      if (colon > 0) world.set(row.slice(0, colon).trim(), row.slice(colon + 2).trim());
    }
  }
  return {
    relationship: relation ? Number(relation[1]) : 0,
    trusted: /You trust the player enough to share your secret/.test(prompt),
    world,
  };
}

function specificity(line: BankLine): number {
  const band = (line.minRelationship !== undefined ? 1 : 0) + (line.maxRelationship !== undefined ? 1 : 0);
  return (line.secret ? 4 : 0) + band + Object.keys(line.world ?? {}).length;
}

function fitsFacts(line: BankLine, facts: TurnFacts): boolean {
  if (line.secret && !facts.trusted) return false;
  if (line.minRelationship !== undefined && facts.relationship < line.minRelationship) return false;
  if (line.maxRelationship !== undefined && facts.relationship > line.maxRelationship) return false;
  for (const [path, want] of Object.entries(line.world ?? {}))
    if (!worldHolds(facts.world.get(path), want)) return false;
  return true;
}

function worldHolds(shown: string | undefined, want: WorldCondition): boolean {
  if (shown === undefined) return false;
  if (want !== null && typeof want === 'object') {
    const value = Number(shown);
    if (!Number.isFinite(value)) return false;
    return (want.min === undefined || value >= want.min) && (want.max === undefined || value <= want.max);
  }
  return shown === (typeof want === 'string' ? want : JSON.stringify(want));
}
