/**
 * One model that answers with `primary` once it says available and with `fallback` until then
 * (downloadable, downloading, unavailable), so a web game always answers while Chrome's model
 * is fetched or where it cannot run. availability() is the primary's, so a status UI offers
 * its download. Once available it stays the primary's.
 */
import type { SignalLike } from '../../contract/abort';
import type {
  GenerationChunk,
  GenerationRequest,
  LanguageModel,
  ModelAvailability,
  ModelCapabilities,
} from '../../contract/language-model';

export class PreferAvailableModel implements LanguageModel {
  private ready = false;

  constructor(
    readonly primary: LanguageModel,
    readonly fallback: LanguageModel,
  ) {}

  /** True once the primary answers. */
  get usingPrimary(): boolean {
    return this.ready;
  }

  get capabilities(): ModelCapabilities {
    return this.ready ? this.primary.capabilities : this.fallback.capabilities;
  }

  async availability(): Promise<ModelAvailability> {
    const state = await this.primary.availability();
    if (state.status === 'available') this.ready = true;
    return state;
  }

  async *generate(request: GenerationRequest, signal?: SignalLike): AsyncGenerator<GenerationChunk, void, undefined> {
    if (!this.ready) await this.availability();
    const target = this.ready ? this.primary : this.fallback;
    yield* target.generate(request, signal);
  }

  async countTokens(text: string): Promise<number | null> {
    const target = this.ready ? this.primary : this.fallback;
    return target.countTokens ? target.countTokens(text) : null;
  }

  async prewarm(systemInstruction?: string, promptPrefix?: string): Promise<void> {
    if (!this.ready) await this.availability();
    const target = this.ready ? this.primary : this.fallback;
    if (target.prewarm) await target.prewarm(systemInstruction, promptPrefix);
  }
}
