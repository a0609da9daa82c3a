/**
 * The page's elements by role (index.html gives their ids) and the tabs a narrow panel switches
 * between; every other page file reaches the DOM through these.
 */
import { byId } from './dom';

/** Something shown that redraws itself from its view when that changes. */
export interface Card {
  root: HTMLElement;
  update(): void;
}

export const ui = {
  setup: byId<HTMLDetailsElement>('setup'),
  setupSummary: byId('setup-summary'),
  now: byId('now-talking'),
  personaSource: byId<HTMLSelectElement>('persona-source'),
  personaCustom: byId('persona-custom'),
  personaText: byId<HTMLTextAreaElement>('persona-text'),
  personaFile: byId<HTMLInputElement>('persona-file'),
  personaProblems: byId<HTMLUListElement>('persona-problems'),
  personaBox: byId<HTMLDetailsElement>('persona-box'),
  personaJson: byId<HTMLDetailsElement>('persona-json'),
  personaForm: byId('persona-form'),
  personaMeter: byId('persona-meter'),
  profileCustom: byId('profile-custom'),
  profileText: byId<HTMLTextAreaElement>('profile-text'),
  profileFile: byId<HTMLInputElement>('profile-file'),
  saveAsTest: byId<HTMLButtonElement>('save-as-test'),
  resultsClose: byId<HTMLButtonElement>('results-close'),
  modelKind: byId<HTMLSelectElement>('model-kind'),
  modelScript: byId('model-script'),
  scriptText: byId<HTMLTextAreaElement>('script-text'),
  modelOpenai: byId('model-openai'),
  openaiUrl: byId<HTMLInputElement>('openai-url'),
  openaiModel: byId<HTMLInputElement>('openai-model'),
  modelProblems: byId<HTMLUListElement>('model-problems'),
  byHandList: byId('by-hand-list'),
  apply: byId<HTMLButtonElement>('apply-setup'),
  chat: byId('chat-log'),
  suggestions: byId('suggestions'),
  talkForm: byId<HTMLFormElement>('talk-form'),
  line: byId<HTMLInputElement>('player-line'),
  send: byId<HTMLButtonElement>('send'),
  cancel: byId<HTMLButtonElement>('cancel'),
  worldView: byId('world-view'),
  npcState: byId('npc-state'),
  resultsCard: byId('results-card'),
  resultsTitle: byId('results-title'),
  results: byId('results'),
  exportSession: byId<HTMLButtonElement>('export-session'),
  replayFile: byId<HTMLInputElement>('replay-file'),
  personaTestFile: byId<HTMLInputElement>('persona-test-file'),
  bankFile: byId<HTMLInputElement>('bank-file'),
  talkHint: byId('talk-hint'),
  worldLog: byId<HTMLOListElement>('world-log'),
  steps: byId('steps'),
};

/** Narrow layouts show one column at a time; the tabs switch it (wide layouts ignore them). */
export function showTab(tab: 'chat' | 'inspector'): void {
  byId('columns').dataset.tab = tab;
  for (const button of Array.from(byId('tabs').querySelectorAll<HTMLButtonElement>('button[data-tab]'))) {
    button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  }
}
for (const button of Array.from(byId('tabs').querySelectorAll<HTMLButtonElement>('button[data-tab]'))) {
  button.addEventListener('click', () => showTab(button.dataset.tab === 'inspector' ? 'inspector' : 'chat'));
}

/** The chosen file's text (the input is cleared, so the same file can be chosen again). */
export async function readFileInput(input: HTMLInputElement): Promise<string | undefined> {
  const file = input.files?.[0];
  input.value = '';
  return file ? file.text() : undefined;
}

/** The results card in the chat column, titled, shown; returns where its content goes. */
export function showResults(title: string): HTMLElement {
  ui.resultsTitle.textContent = title;
  ui.resultsCard.hidden = false;
  // The chat shrinks to make room: keep its last line in view.
  ui.chat.scrollTop = ui.chat.scrollHeight;
  return ui.results;
}
