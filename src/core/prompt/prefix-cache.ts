/**
 * The stable prefix of an agent, rendered once and reused while nothing it depends on changes:
 * rendering every tool schema in words on every turn costs more than the rest of a step.
 */
import type { AgentTool } from '../tools';
import type { JsonSchema } from '../schema';
import type { LanguageModel } from '../../models/types';
import type { AgentLabels } from '../agent/config';
import { renderToolSection } from './stable-prefix';
import { stablePrompt, type StablePrompt } from './prompt-builder';

export class PrefixCache {
  private key: unknown[] = [];
  private value: StablePrompt | undefined;

  get(instructions: string, tools: readonly AgentTool[], labels: AgentLabels, inlineReplies: boolean, replySchema: JsonSchema | undefined, model: LanguageModel): StablePrompt {
    // Tool lists are replaced, never mutated, so identity says whether they changed.
    const key = [instructions, tools, labels.user, labels.assistant, inlineReplies, replySchema, model.capabilities.systemInstructions];
    if (this.value && key.every((k, i) => k === this.key[i])) return this.value;
    const section = renderToolSection({ instructions, tools, labels, inlineReplies, replySchema });
    this.key = key;
    this.value = stablePrompt(instructions, section, model);
    return this.value;
  }
}
