/**
 * A game action an NPC may ask for, declared in the Inspector and answered by the game through
 * the `npc-external-tool` node event (open a shop, give an item, start a quest).
 */
import { _decorator, CCInteger } from 'cc';

const { ccclass, property } = _decorator;

@ccclass('oam.ToolDeclaration')
export class ToolDeclaration {
  @property({ tooltip: 'Tool name the model calls: letters, digits, _ . - (e.g. give_item).' })
  name = '';

  @property({ multiline: true, tooltip: 'What the tool does and when to use it, in one or two sentences.' })
  description = '';

  @property({ multiline: true, tooltip: 'JSON Schema of the arguments (an object schema); empty = no arguments.' })
  parametersSchema = '';

  @property({
    type: CCInteger,
    tooltip: "How long the turn waits for the game's answer (ms); 0 = the NPC's external tool timeout.",
  })
  timeoutMs = 0;
}
