/**
 * The model of a replay: it answers each request with the next recorded output of the turn being
 * replayed (or fails with the recorded error), in order, whatever the prompt says, and notes every
 * request that differs from the recorded one (a divergence) instead of hiding it. Asked for a step
 * the bundle does not have, it fails with generation_failed naming the turn and step.
 */
import { AgentError } from '../../contract/errors';
import { abortError, type SignalLike } from '../../contract/abort';
import {
  DEFAULT_CAPABILITIES,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type ModelAvailability,
  type ModelCapabilities,
} from '../../contract/language-model';
import type { RecordedStep, RecordedTurn } from './replay-bundle';

export type DivergentField = 'kind' | 'systemInstruction' | 'promptPrefix' | 'prompt';

/** A request that is not what was recorded: where, which field, and both texts from where they part. */
export interface Divergence {
  turn: number;
  step: number;
  field: DivergentField;
  /** Index of the first character that differs. */
  at: number;
  recorded: string;
  replayed: string;
}

const FIELDS: DivergentField[] = ['kind', 'systemInstruction', 'promptPrefix', 'prompt'];
/** How much of each text a divergence keeps around the first difference. */
const CONTEXT = 120;

function firstDifference(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) if (left.charCodeAt(index) !== right.charCodeAt(index)) return index;
  return length;
}

function around(text: string, at: number): string {
  const start = Math.max(0, at - 20);
  return `${start > 0 ? '…' : ''}${text.slice(start, at + CONTEXT)}${at + CONTEXT < text.length ? '…' : ''}`;
}

export class ReplayModel implements LanguageModel {
  readonly capabilities: ModelCapabilities = { ...DEFAULT_CAPABILITIES, modelName: 'replay' };
  readonly divergences: Divergence[] = [];
  private steps: RecordedStep[] = [];
  private turn = -1;
  private played = 0;

  /** The next requests are answered from `turn`'s recorded steps. */
  startTurn(index: number, turn: RecordedTurn): void {
    this.turn = index;
    this.steps = turn.steps.slice();
    this.played = 0;
  }

  /** Steps of the current turn the NPC did not ask for. */
  get unplayed(): number {
    return this.steps.length - this.played;
  }

  availability(): Promise<ModelAvailability> {
    return Promise.resolve({ status: 'available' });
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk> {
    if (signal?.aborted) throw abortError(signal);
    const index = this.played;
    const step = this.steps[index];
    if (!step)
      throw new AgentError(
        'generation_failed',
        `The replay bundle has no recorded output for step ${index} of turn ${this.turn} (a ${request.kind} step): the NPC asked for more model calls than were recorded.`,
      );
    this.played++;
    this.compare(request, step, index);
    await Promise.resolve();
    if (step.error) throw new AgentError(step.error.code, step.error.message);
    const text = step.output ?? '';
    // Two pieces, so the agent's streaming paths run as on a device.
    const cut = Math.ceil(text.length / 2);
    if (cut > 0 && cut < text.length) {
      yield { delta: text.slice(0, cut), text: text.slice(0, cut) };
      if (signal?.aborted) throw abortError(signal);
    }
    const usage = step.usage
      ? {
          inputTokens: step.usage.inputTokens,
          cachedInputTokens: step.usage.cachedInputTokens ?? 0,
          outputTokens: step.usage.outputTokens,
        }
      : undefined;
    yield {
      delta: text.slice(cut > 0 && cut < text.length ? cut : 0),
      text,
      finishReason: 'stop',
      ...(usage ? { usage } : {}),
    };
  }

  private compare(request: GenerationRequest, step: RecordedStep, index: number): void {
    for (const field of FIELDS) {
      const recorded = String(step[field] ?? '');
      const replayed = String(request[field] ?? '');
      if (recorded === replayed) continue;
      const at = firstDifference(recorded, replayed);
      this.divergences.push({
        turn: this.turn,
        step: index,
        field,
        at,
        recorded: around(recorded, at),
        replayed: around(replayed, at),
      });
    }
  }
}
