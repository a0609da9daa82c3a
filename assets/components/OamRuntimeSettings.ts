/**
 * Inspector front-end of OamRuntime.configure(): put it on a node of the first scene to point
 * editor and browser previews at a development server (llama.cpp, Ollama…). Native builds
 * never use the server (they have no fetch): Android keeps Gemini Nano. It merges into what
 * scripts configured (a custom model, the stand-in's rules) and changes only these fields; a
 * scene that loads it again with the same values leaves the shared model as it is.
 */
import { _decorator, Component, CCInteger } from 'cc';
import { OamRuntime } from './OamRuntime';

const { ccclass, property, menu, executionOrder, disallowMultiple } = _decorator;

@ccclass('oam.OamRuntimeSettings')
@menu('oam/OamRuntimeSettings')
@executionOrder(-100)
@disallowMultiple
export class OamRuntimeSettings extends Component {
  @property({
    tooltip:
      'OpenAI-compatible API root for editor and browser previews, e.g. http://127.0.0.1:8080/v1 (empty = stand-in). Native builds ignore it.',
  })
  openaiUrl = '';

  @property({ tooltip: 'Model name sent to that server.' })
  openaiModel = 'default';

  @property({ type: CCInteger, tooltip: 'Most model calls per minute across the game (Gemini Nano allows about 40).' })
  callsPerMinute = 30;

  onLoad(): void {
    const url = this.openaiUrl.trim();
    // Keep what scripts configured (the stand-in's rules, a custom model); change only these.
    const current = OamRuntime.config;
    OamRuntime.configure({
      ...current,
      openaiUrl: url || undefined,
      model: this.openaiModel.trim() || undefined,
      scheduler: { ...current.scheduler, callsPerMinute: this.callsPerMinute },
    });
  }
}
