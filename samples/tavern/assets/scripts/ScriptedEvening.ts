/**
 * The scripted evening for editor and browser previews: keyword rules that answer like Mira
 * (and the gate guard) would, through the same tool calls a real model makes. It configures
 * OamRuntime's stand-in model before any NPC loads. On an Android build Gemini Nano answers
 * instead and these rules are not used.
 *
 * To preview with a real model, add OamRuntimeSettings with a server URL: it runs after this
 * component and merges its URL into this configuration, so the server answers and these rules
 * stay configured but unused (native builds ignore the URL).
 */
import { _decorator, Component, CCInteger } from 'cc';
import { OamRuntime } from 'db://oam-cocos/index';
import type { OamRuntimeConfig } from 'db://oam-cocos/index';
import { TAVERN_STAND_IN } from './TavernRules';

const { ccclass, property, menu, executionOrder, disallowMultiple } = _decorator;

/** The stand-in model's options (KeywordModelOptions of the runtime). */
export type StandInRules = NonNullable<OamRuntimeConfig['standIn']>;

/** The rules for the tavern's stand-in model; `chunkDelayMs` paces the streamed text. */
export function tavernStandIn(chunkDelayMs = 25): StandInRules {
  return { chunkDelayMs, ...TAVERN_STAND_IN };
}

@ccclass('tavern.ScriptedEvening')
@menu('tavern/ScriptedEvening')
@executionOrder(-200)
@disallowMultiple
export class ScriptedEvening extends Component {
  @property({ type: CCInteger, tooltip: 'Delay between streamed chunks in previews (ms); 0 = instant.' })
  chunkDelayMs = 25;

  onLoad(): void {
    // Runs before every NPC, decision and NanoStatus (executionOrder -200), so they all share it.
    OamRuntime.configure({ standIn: tavernStandIn(this.chunkDelayMs) });
  }
}
