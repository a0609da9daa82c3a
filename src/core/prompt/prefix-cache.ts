/**
 * The stable prefix of an agent, rendered once and reused while nothing it depends on changes:
 * rendering every tool schema in words on every turn costs more than the rest of a step.
 */
import type { LanguageModel } from '../../contract/language-model';
import { renderToolSection, type PrefixInput } from './stable-prefix';
import { stablePrompt, type StablePrompt } from './prompt-builder';

export class PrefixCache {
  private key: unknown[] = [];
  private value: StablePrompt | undefined;

  get(input: PrefixInput, model: LanguageModel): StablePrompt {
    const { instructions, tools, labels } = input;
    // Tool lists are replaced, never mutated, so identity says whether they changed.
    const key = [
      instructions,
      tools,
      labels.user,
      labels.assistant,
      labels.writes,
      input.inlineReplies,
      input.lineFirst,
      input.replyLineField,
      input.replySchema,
      model.capabilities.systemInstructions,
    ];
    if (this.value && key.every((part, index) => part === this.key[index])) return this.value;
    const section = renderToolSection(input);
    this.key = key;
    this.value = stablePrompt(instructions, section, model);
    return this.value;
  }
}
