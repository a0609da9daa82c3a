/**
 * What the Prompt API's availability() answers mean for a game: the project's ModelAvailability,
 * with the reason and what the player or the developer can do about an unavailable model.
 */
import type { ModelAvailability } from '../../contract/language-model';
import { FRAME_HINT } from './errors';
import { inCrossOriginFrame } from './prompt-api';

export const NO_API =
  'This runtime has no Prompt API (the global LanguageModel): Chrome 148+ on Windows, macOS, Linux or a Chromebook Plus has it; Cocos native builds, Chrome on Android, Safari and Firefox do not. Use GeminiNanoModel on Android or the stand-in.';

/** Chrome's answer as a ModelAvailability; `downloading` is what to say while the model downloads. */
export function availabilityFrom(answer: unknown, downloading: ModelAvailability): ModelAvailability {
  switch (answer) {
    case 'available':
      return { status: 'available' };
    case 'downloadable':
      return { status: 'downloadable' };
    case 'downloading':
      return downloading;
    case 'unavailable':
      if (inCrossOriginFrame())
        return {
          status: 'unavailable',
          reason: 'permissions_policy',
          detail: `Chrome says unavailable; ${FRAME_HINT}, or this machine cannot run the model.`,
        };
      return {
        status: 'unavailable',
        reason: 'device_not_eligible',
        detail:
          "Chrome's built-in model cannot run here: it needs Chrome 148+ on Windows 10/11, macOS 13+, Linux or a Chromebook Plus, 22 GB free disk, and a GPU with more than 4 GB VRAM or 16 GB RAM and 4 cores.",
      };
    default:
      return {
        status: 'unavailable',
        reason: 'unknown',
        detail: `Chrome answered availability() with ${JSON.stringify(answer)}.`,
      };
  }
}
