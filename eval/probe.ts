/**
 * A model wrapper that writes down every step the library asked for and what came back, so the
 * scores come from the steps themselves (repairs, first tries, times) and not from what one game
 * API happens to return: DecisionEngine, ContentGenerator and barks report no steps of their own.
 */
import {
  AgentError,
  type GenerationChunk,
  type GenerationRequest,
  type LanguageModel,
  type SignalLike,
  type StepKind,
} from '../src';

/** Milliseconds from some fixed point; `performance.now()` in live runs, a fake in tests. */
export type Clock = () => number;

export interface StepTrace {
  kind: StepKind;
  isRepair: boolean;
  /** The whole answer as the model wrote it (up to where the library stopped reading). */
  output: string;
  ms: number;
  /** Set when the step failed: the AgentError code and message. */
  error?: { code: string; message: string };
}

export class ProbeModel implements LanguageModel {
  private steps: StepTrace[] = [];

  constructor(
    private readonly inner: LanguageModel,
    private readonly clock: Clock,
  ) {}

  get capabilities() {
    return this.inner.capabilities;
  }

  availability() {
    return this.inner.availability();
  }

  countTokens(text: string): Promise<number | null> {
    return this.inner.countTokens ? this.inner.countTokens(text) : Promise.resolve(null);
  }

  /** The steps since the last take. */
  take(): StepTrace[] {
    const taken = this.steps;
    this.steps = [];
    return taken;
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    const started = this.clock();
    const trace: StepTrace = { kind: request.kind, isRepair: request.isRepair === true, output: '', ms: 0 };
    this.steps.push(trace);
    try {
      for await (const chunk of this.inner.generate(request, signal)) {
        trace.output = chunk.text;
        trace.ms = this.clock() - started;
        yield chunk;
      }
    } catch (error) {
      const agentError = AgentError.from(error);
      trace.error = { code: agentError.code, message: agentError.message };
      throw error;
    } finally {
      // Also reached when the library stops reading early because the JSON answer was complete.
      trace.ms = this.clock() - started;
    }
  }
}
