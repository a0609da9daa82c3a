/**
 * Inspector front-end of OamRuntime.configure(): put it on a node of the first scene to point
 * editor and browser previews at a development server (llama.cpp, Ollama…). Android builds
 * keep Gemini Nano unless "Use On Device" is ticked.
 */
import { _decorator, Component, CCInteger } from 'cc';
import { OamRuntime } from './OamRuntime';

const { ccclass, property, menu, executionOrder, disallowMultiple } = _decorator;

@ccclass('oam.OamRuntimeSettings')
@menu('oam/OamRuntimeSettings')
@executionOrder(-100)
@disallowMultiple
export class OamRuntimeSettings extends Component {
  @property({ tooltip: 'OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1 (empty = stand-in in previews).' })
  openaiUrl = '';

  @property({ tooltip: 'Model name sent to that server.' })
  openaiModel = 'default';

  @property({ tooltip: 'Use the server on Android builds too, instead of Gemini Nano.' })
  useOnDevice = false;

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
      openaiOnDevice: this.useOnDevice,
      scheduler: { ...current.scheduler, callsPerMinute: this.callsPerMinute },
    });
  }
}
