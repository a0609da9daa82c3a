/// <reference lib="dom" />
/**
 * Bundled into the eval's browser page before its own script by eval-chrome.browser.test.ts:
 * installs the Prompt API STAND-IN (not Chrome's model) as the page's `LanguageModel`, with a
 * brain that answers the bark and decision scenarios, so the Node↔page bridge of `--chrome`
 * (chunks streamed back, capabilities, early stops) runs for real in Chromium.
 */
import { createPromptApiStandIn, type BrainInput } from '../../bench/web/prompt-api-stand-in';

const ANSWERS: Array<[RegExp, string]> = [
  [/goblin/i, 'attack'],
  [/captain returns/i, 'let_in'],
  [/stranger/i, 'warn'],
  [/rain/i, 'Rain again! Bring those wet boots by the fire.'],
  [/bard/i, "Now that's a tune to warm the room!"],
  [/stew pot/i, 'Oh, my stew! Mind the floor, it is hot!'],
];

function answer(input: BrainInput): string {
  const found = ANSWERS.find(([pattern]) => pattern.test(input.prompt));
  return found ? found[1] : 'Hm.';
}

const { api } = createPromptApiStandIn({ brain: answer, chunkChars: 4 });
(globalThis as { LanguageModel?: unknown }).LanguageModel = api;
