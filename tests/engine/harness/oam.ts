/**
 * The extension as a game sees it on the real engine: the packed components (db://oam-cocos/index)
 * and the runtime bundle's classes they use, plus the scripted-model helpers the tests share.
 * Types come from the sources (erased at run time); values only from the pack, so an AgentTool
 * made here is the same class the components check against.
 */
import type * as Components from '../../../assets/index';
import type { ScriptStep, ScriptedLanguageModel } from '../../../assets/runtime/oam-core.js';
import { loadPack, type EnvOverrides, type LoadedPack } from './pack';

export type Oam = typeof Components;

export interface LoadedOam {
  pack: LoadedPack;
  /** db://oam-cocos/index as packed. */
  C: Oam;
  /** The runtime bundle as packed (AgentTool, Script, ScriptedLanguageModel…). */
  core: LoadedPack['core'];
}

/** `env`: what the packed scripts read from 'cc/env' instead of the harness's constants. */
export async function loadOam(env: EnvOverrides = {}): Promise<LoadedOam> {
  const pack = await loadPack(env);
  return { pack, C: pack.script<Oam>('index'), core: pack.core };
}

/** A reply step that fits whichever step the NPC asks for (a decide step with the reply inline, or a structured reply). */
export function say(oam: LoadedOam, line: string, emotion = 'neutral'): ScriptStep {
  return oam.core.Script.dynamic((request) =>
    request.kind === 'decide' ? JSON.stringify({ reply: { emotion, line } }) : JSON.stringify({ emotion, line }),
  );
}

/** Makes `steps` the shared model's script (no pacing, so tests do not wait on the quota). */
export function useModel(oam: LoadedOam, steps: ScriptStep[]): ScriptedLanguageModel {
  const model = new oam.core.ScriptedLanguageModel(steps);
  oam.C.OamRuntime.configure({ languageModel: model, scheduler: { callsPerMinute: 0 } });
  return model;
}

export const MIRA = { name: 'Mira', role: 'innkeeper', personality: 'warm and quick-witted' };
