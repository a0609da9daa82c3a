/// <reference lib="dom" />
/**
 * The models the page can talk through: the keyword-driven stand-in (default), a recorded
 * script, an OpenAI-compatible server (llama.cpp, Ollama, LM Studio) that the browser calls
 * directly, or Chrome's built-in Gemini Nano (the Prompt API), offered only when the browser
 * has it.
 */
import { AgentError, type Persona, ChromePromptModel, OpenAICompatibleModel, type LanguageModel } from '../../src';
import { createPersonaStandIn, ScriptedLanguageModel } from '../../src/testing';
import { createMiraModel } from '../../demo/tavern/mira-model';
import { readScript } from './script-source';

export type ModelChoice =
  /** `persona`: another NPC than the sample's Mira gets a stand-in built from its own fields. */
  | { kind: 'standin'; persona?: Persona; tools?: Array<{ name: string; description?: string }> }
  | { kind: 'script'; script: string }
  | { kind: 'openai'; url: string; model?: string }
  | { kind: 'chrome-nano' };

export type ModelReading = { ok: true; model: LanguageModel; label: string } | { ok: false; problems: string[] };

export interface ModelChoiceOptions {
  /** Pause between streamed chunks of the local models, so streaming is visible. */
  chunkDelayMs?: number;
}

export function createModel(choice: ModelChoice, options: ModelChoiceOptions = {}): ModelReading {
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  switch (choice.kind) {
    case 'standin':
      // The sample's Mira keeps her scripted evening; any other persona answers from its own fields.
      if (!choice.persona) return { ok: true, model: createMiraModel({ chunkDelayMs }), label: 'keyword stand-in' };
      try {
        return {
          ok: true,
          model: createPersonaStandIn(choice.persona, { tools: choice.tools, chunkDelayMs }),
          label: `keyword stand-in for ${choice.persona.name}`,
        };
      } catch (error) {
        return { ok: false, problems: [`persona: ${AgentError.from(error).message}`] };
      }
    case 'script': {
      const script = readScript(choice.script);
      if (!script.ok) return script;
      return {
        ok: true,
        model: new ScriptedLanguageModel(script.steps, { chunkDelayMs }),
        label: `recorded script (${script.steps.length} steps)`,
      };
    }
    case 'openai': {
      const url = choice.url.trim();
      if (!url)
        return {
          ok: false,
          problems: [
            'endpoint: enter the server URL, e.g. http://127.0.0.1:8080/v1 (llama.cpp) or http://127.0.0.1:11434/v1 (Ollama).',
          ],
        };
      const name = choice.model?.trim() || undefined;
      try {
        // A short per-step timeout: a preview should say "not answering" quickly.
        const model = new OpenAICompatibleModel({ baseUrl: url, model: name, requestTimeoutMs: 60000 });
        return { ok: true, model, label: `${model.baseUrl} (${name ?? 'default'})` };
      } catch (caught) {
        return { ok: false, problems: [`endpoint: ${AgentError.from(caught).message}`] };
      }
    }
    case 'chrome-nano': {
      if (!ChromePromptModel.isSupported()) {
        return {
          ok: false,
          problems: [
            'model: this browser has no built-in model (Chrome 148 or later on a desktop computer has it); pick another model.',
          ],
        };
      }
      const model = new ChromePromptModel();
      // createModel runs from the Apply click: that gesture lets Chrome start a download it needs
      // (when the model is there, this only loads it). A failure shows on the first turn instead.
      model.download().catch(() => undefined);
      return { ok: true, model, label: "Chrome's built-in Gemini Nano" };
    }
    default:
      return { ok: false, problems: [`model: unknown choice ${JSON.stringify((choice as { kind?: unknown }).kind)}.`] };
  }
}

export const CHROME_NANO_CHOICE = 'chrome-nano';

/**
 * Adds Chrome's built-in model to the page's model list when this browser has it and can run it
 * (Chrome 148+ on the desktop; never in Creator's own Electron). Resolves whether it was added.
 */
export async function offerChromeNano(select: HTMLSelectElement): Promise<boolean> {
  if (!ChromePromptModel.isSupported()) return false;
  const availability = await new ChromePromptModel().availability();
  if (availability.status === 'unavailable' || select.querySelector(`option[value="${CHROME_NANO_CHOICE}"]`))
    return false;
  const option = select.ownerDocument.createElement('option');
  option.value = CHROME_NANO_CHOICE;
  option.textContent =
    availability.status === 'available'
      ? "Chrome's built-in Gemini Nano (on this computer)"
      : "Chrome's built-in Gemini Nano (downloads on Apply)";
  select.append(option);
  return true;
}
