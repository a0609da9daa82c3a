/**
 * The three models the page can talk through: the keyword-driven stand-in (default), a
 * recorded script, or an OpenAI-compatible server (llama.cpp, Ollama, LM Studio) that the
 * browser calls directly.
 */
import { AgentError, OpenAICompatibleModel, ScriptedLanguageModel, type LanguageModel } from '../../src';
import { createMiraModel } from '../../demo/tavern/mira-model';
import { readScript } from './script-source';

export type ModelChoice =
  | { kind: 'standin' }
  | { kind: 'script'; script: string }
  | { kind: 'openai'; url: string; model?: string };

export type ModelReading =
  | { ok: true; model: LanguageModel; label: string }
  | { ok: false; problems: string[] };

export interface ModelChoiceOptions {
  /** Pause between streamed chunks of the local models, so streaming is visible. */
  chunkDelayMs?: number;
}

export function createModel(choice: ModelChoice, options: ModelChoiceOptions = {}): ModelReading {
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  switch (choice.kind) {
    case 'standin':
      return { ok: true, model: createMiraModel({ chunkDelayMs }), label: 'keyword stand-in' };
    case 'script': {
      const script = readScript(choice.script);
      if (!script.ok) return script;
      return { ok: true, model: new ScriptedLanguageModel(script.steps, { chunkDelayMs }), label: `recorded script (${script.steps.length} steps)` };
    }
    case 'openai': {
      const url = choice.url.trim();
      if (!url) return { ok: false, problems: ['endpoint: enter the server URL, e.g. http://127.0.0.1:8080/v1 (llama.cpp) or http://127.0.0.1:11434/v1 (Ollama).'] };
      const name = choice.model?.trim() || undefined;
      try {
        // A short per-step timeout: a preview should say "not answering" quickly.
        const model = new OpenAICompatibleModel({ baseUrl: url, model: name, requestTimeoutMs: 60000 });
        return { ok: true, model, label: `${model.baseUrl} (${name ?? 'default'})` };
      } catch (e) {
        return { ok: false, problems: [`endpoint: ${AgentError.from(e).message}`] };
      }
    }
    default:
      return { ok: false, problems: [`model: unknown choice ${JSON.stringify((choice as { kind?: unknown }).kind)}.`] };
  }
}
