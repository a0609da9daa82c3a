/// <reference lib="dom" />
/**
 * A line bank reviewed in the page before it ships (docs/line-banks.md): each baked line with
 * its intent, relationship band, emotion and calls; the designer keeps it, edits its words or
 * drops it, then saves the bank, checked against its schema first. A bank can be baked here
 * too, on the model the set-up names, from the intents of the file under review (a bank, or
 * `{ "intents": … }`), with the profile's tools and a fresh world for each line.
 */
import {
  AgentError,
  bakeLineBank,
  lineBankProblems,
  type AgentTool,
  type BankLine,
  type LanguageModel,
  type LineBank,
  type NPCOptions,
  type Persona,
  type WorldState,
} from '../../src';
import { readJsonInput } from '../../src/core/json/json-input';
import { element, clear } from './dom';
import { downloadJson } from './session-files';

/** What a bake in the page plays: the set-up's NPC and model. */
export interface PageBake {
  persona: Persona;
  model: LanguageModel;
  options?: NPCOptions;
  /** A fresh set of the profile's tools and world for each played line. */
  setup: () => { tools?: AgentTool[]; world?: WorldState };
}

interface ReviewRow {
  line: BankLine;
  input: HTMLInputElement;
  dropped: boolean;
}

/** Reads a bank file (or an intents file) and shows it for review in `root`. */
export function reviewBankText(root: HTMLElement, text: string, bake: () => PageBake | string): void {
  let value: Partial<LineBank>;
  try {
    value = readJsonInput(text, 'The line bank') as Partial<LineBank>;
    if (!value || typeof value !== 'object' || typeof value.intents !== 'object' || value.intents === null)
      throw new AgentError(
        'invalid_request',
        'A line bank (or an intents file) needs "intents": {"name": ["player line", …]}.',
      );
  } catch (error) {
    root.replaceChildren(element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message));
    return;
  }
  renderReview(root, value, bake);
}

function renderReview(root: HTMLElement, bank: Partial<LineBank>, bake: () => PageBake | string): void {
  clear(root);
  const lines = Array.isArray(bank.lines) ? bank.lines : [];
  const rows: ReviewRow[] = [];
  const summary = element('p', { class: 'help', id: 'bank-summary' });
  const problems = element('ul', { class: 'problems', id: 'bank-problems', hidden: '' });
  const count = () => {
    const kept = rows.filter((row) => !row.dropped).length;
    summary.textContent = `${bank.character ?? 'A bank'}: ${lines.length} lines, ${kept} kept, ${lines.length - kept} dropped.`;
  };
  root.append(summary);
  if (lines.length === 0)
    root.append(element('p', { class: 'help' }, 'No lines yet: bake them on the set-up model, then review them here.'));
  lines.forEach((line, index) => {
    const row = reviewRow(line, index, count);
    rows.push(row.state);
    root.append(row.root);
  });
  const save = element('button', { type: 'button', class: 'primary small', id: 'bank-save' }, 'Save the bank');
  save.addEventListener('click', () => {
    const reviewed: LineBank = {
      ...(bank as LineBank),
      lines: rows.filter((row) => !row.dropped).map((row) => ({ ...row.line, line: row.input.value.trim() })),
    };
    const found = lineBankProblems(reviewed);
    clear(problems);
    for (const problem of found) problems.append(element('li', {}, problem));
    problems.hidden = found.length === 0;
    if (found.length > 0) return;
    const name =
      String(reviewed.character)
        .replace(/[^\w-]+/g, '-')
        .toLowerCase() || 'npc';
    downloadJson(reviewed, `${name}.bank.json`);
  });
  const bakeButton = element('button', { type: 'button', class: 'small', id: 'bank-bake' }, 'Bake on the set-up model');
  bakeButton.addEventListener('click', () => void bakeInto(root, bank, bake));
  root.append(problems, element('div', { class: 'row end' }, bakeButton, save));
  count();
}

function reviewRow(line: BankLine, index: number, changed: () => void): { root: HTMLElement; state: ReviewRow } {
  const input = element('input', {
    type: 'text',
    class: 'bank-line-input',
    value: line.line,
    'aria-label': `Line ${index + 1}`,
  });
  const state: ReviewRow = { line, input, dropped: false };
  const drop = element('button', { type: 'button', class: 'quiet small bank-drop' }, 'Drop');
  const root = element(
    'div',
    { class: 'result-row bank-row' },
    element(
      'div',
      { class: 'bank-meta' },
      element('span', { class: 'badge kind' }, line.intent ?? 'any'),
      element('span', { class: 'muted' }, bandText(line)),
      line.emotion ? element('span', { class: `emotion e-${line.emotion}` }, line.emotion) : null,
      ...(line.calls ?? []).map((call) => element('code', {}, `${call.name}(${JSON.stringify(call.args ?? {})})`)),
      line.secret ? element('span', { class: 'badge repair' }, 'secret') : null,
    ),
    element('div', { class: 'row' }, input, drop),
  );
  drop.addEventListener('click', () => {
    state.dropped = !state.dropped;
    root.classList.toggle('dropped', state.dropped);
    input.disabled = state.dropped;
    drop.textContent = state.dropped ? 'Keep' : 'Drop';
    changed();
  });
  return { root, state };
}

function bandText(line: BankLine): string {
  if (line.minRelationship === undefined && line.maxRelationship === undefined) return 'any relationship';
  return `relationship ${line.minRelationship ?? -100} to ${line.maxRelationship ?? 100}`;
}

async function bakeInto(root: HTMLElement, source: Partial<LineBank>, bake: () => PageBake | string): Promise<void> {
  const setup = bake();
  if (typeof setup === 'string') {
    root.prepend(element('p', { class: 'problems', role: 'alert' }, setup));
    return;
  }
  const progress = element('p', { class: 'help', id: 'bank-progress' }, 'Baking…');
  root.replaceChildren(progress);
  let played = 0;
  try {
    const baked = await bakeLineBank({
      persona: setup.persona,
      model: setup.model,
      options: setup.options,
      setup: setup.setup,
      intents: source.intents as Record<string, string[]>,
      perIntent: 1,
      onLine: () => (progress.textContent = `Baking… ${++played} lines`),
    });
    renderReview(root, baked, bake);
  } catch (error) {
    root.replaceChildren(element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message));
  }
}
