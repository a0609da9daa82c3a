/**
 * What Gemini Nano is told and what it says it can do: the capabilities before the device has
 * answered and from its modelInfo, and one generation's parameters laid out for ML Kit (its
 * cached prefix, its system instruction, thinking, images).
 */
import type { GenerationRequest, ModelCapabilities, StepKind } from '../../contract/language-model';
import { wireImages, type GenerateParams, type ModelInfoResult } from './protocol';

/** What is assumed until the device answers modelInfo. */
export const BEFORE_DETECTION: ModelCapabilities = {
  modelName: 'gemini-nano',
  maxInputTokens: 4000,
  maxOutputTokens: 4096,
  systemInstructions: true,
  prefixCaching: false,
  nativeToolCalling: false,
  // ML Kit takes one image per request; a module too old for it says so in modelInfo.
  imageInput: true,
  maxImagesPerRequest: 1,
};

/** The capabilities the device's modelInfo says, within the game's input budget and cache choice. */
export function capabilitiesFrom(
  info: ModelInfoResult,
  settings: { maxInputTokens: number | undefined; prefixCaching: boolean },
): ModelCapabilities {
  const deviceLimit = info.tokenLimit > 0 ? info.tokenLimit : undefined;
  return {
    modelName: info.baseModelName || 'gemini-nano',
    maxInputTokens: settings.maxInputTokens ?? deviceLimit ?? 4000,
    maxOutputTokens: 4096,
    systemInstructions: info.systemInstructions,
    prefixCaching: settings.prefixCaching && info.prefixCaching,
    nativeToolCalling: false,
    imageInput: info.imageInput === true,
    maxImagesPerRequest: 1,
  };
}

/**
 * Prefix → ML Kit's cached prompt prefix where supported (and enabled), else concatenated with
 * the prompt. System instruction: inside the cached prefix, at its start, when the cache is
 * used (ML Kit advises against system instructions with prefix caching; both are stable, so
 * the cache covers both); else ML Kit's system instruction where supported; else in front of
 * everything (ahead of the prefix, so the prefix stays byte-stable). With an image, ML Kit takes
 * no prompt prefix: that call sends the whole prompt, uncached.
 */
export function generateParams(
  request: GenerationRequest,
  info: ModelInfoResult,
  settings: { prefixCaching: boolean; thinkingFor: ReadonlySet<StepKind> },
): GenerateParams {
  const system = request.systemInstruction || undefined;
  const prefix = request.promptPrefix || '';
  const params: GenerateParams = { prompt: request.prompt };
  const images = request.images && request.images.length > 0 ? request.images : undefined;
  const cacheOn = settings.prefixCaching && info.prefixCaching && !images;
  const asInstruction = system !== undefined && info.systemInstructions && !(cacheOn && prefix !== '');
  const stable = system !== undefined && !asInstruction ? `${system}\n\n${prefix}` : prefix;
  if (asInstruction) params.systemInstruction = system;
  if (stable && cacheOn) params.promptPrefix = stable;
  else params.prompt = stable + request.prompt;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.topK !== undefined) params.topK = request.topK;
  if (request.seed !== undefined) params.seed = request.seed;
  if (request.maxOutputTokens !== undefined) params.maxOutputTokens = request.maxOutputTokens;
  if (info.thinking && settings.thinkingFor.has(request.kind)) params.thinking = true;
  if (images) params.images = wireImages(images);
  return params;
}
