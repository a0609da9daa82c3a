/** What NPCComponent.talk() and restore() take. */
import type { ImageInput, ToolChoice } from '../runtime/oam-core.js';

export interface NPCRestoreOptions {
  /**
   * Take the memory and conversation of a save made by a character of another name (the NPC
   * stays the Inspector's persona). Default false: such a save is refused.
   */
  acceptOtherPersona?: boolean;
}

export interface NPCTalkOptions {
  /** What is happening now; shown to the model for this turn only. */
  situation?: string;
  /** A picture the player shows with the line (see imageFromRenderTexture), for a model that takes images. */
  image?: ImageInput;
  toolChoice?: ToolChoice;
}
