/// <reference lib="dom" />
/**
 * The preview page: pick a persona and a model, talk, and watch what the NPC does. Runs the
 * real core in the browser; the editor panel hosts this same page and sends it the persona of
 * the selected NPC (see `embed-message.ts`).
 */
import {
  AgentError,
  AgentTool,
  WorldState,
  readPersonaTest,
  runPersonaTest,
  type LanguageModel,
  type NPCOptions,
  type Persona,
} from '../../src';
import { STAND_IN_NOTICE, personaSuggestions } from '../../src/testing';
import { EVENING } from '../../demo/tavern/evening';
import { element, byId, clear } from './dom';
import { readPersona, SAMPLE_PERSONA } from './persona-source';
import { CHROME_NANO_CHOICE, createModel, offerChromeNano, type ModelChoice } from './model-choice';
import { SAMPLE_SCRIPT } from './script-source';
import { PreviewSession, type ExtraToolDeclaration } from './preview-session';
import type { StepView, ToolView, TurnView } from './turn-view';
import { compactJson, describeChange, turnTotals } from './format';
import { isTrustedSender, readEmbedMessage, readQuerySettings } from './embed-message';
import { renderState } from './state-panel';
import { renderEditableWorld } from './world-editor';
import { downloadConversation, renderPersonaReport, renderReplay } from './session-files';
import { readConversationExport, TAVERN_NPC_OPTIONS } from './preview-session';
import { createTavernWorld, tavernTools } from '../../demo/tavern/tavern-world';

/** How long a chosen server may take to answer the connection check. */
const SERVER_CHECK_MS = 5000;
/** A small pause between streamed chunks of the local models, so the line visibly streams. */
const CHUNK_DELAY_MS = 45;
const TAVERN_TOOL_NAMES = ['check_menu', 'take_order'];

interface Card {
  root: HTMLElement;
  update(): void;
}

const ui = {
  setup: byId<HTMLDetailsElement>('setup'),
  setupSummary: byId('setup-summary'),
  now: byId('now-talking'),
  personaSource: byId<HTMLSelectElement>('persona-source'),
  personaCustom: byId('persona-custom'),
  personaText: byId<HTMLTextAreaElement>('persona-text'),
  personaFile: byId<HTMLInputElement>('persona-file'),
  personaProblems: byId<HTMLUListElement>('persona-problems'),
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
  talkHint: byId('talk-hint'),
  worldLog: byId<HTMLOListElement>('world-log'),
  steps: byId('steps'),
};

/** Narrow layouts show one column at a time; the tabs switch it (wide layouts ignore them). */
function showTab(tab: 'chat' | 'inspector'): void {
  byId('columns').dataset.tab = tab;
  for (const button of Array.from(byId('tabs').querySelectorAll<HTMLButtonElement>('button[data-tab]'))) {
    button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  }
}
for (const button of Array.from(byId('tabs').querySelectorAll<HTMLButtonElement>('button[data-tab]'))) {
  button.addEventListener('click', () => showTab(button.dataset.tab === 'inspector' ? 'inspector' : 'chat'));
}

let session: PreviewSession | null = null;
let extraTools: ExtraToolDeclaration[] = [];
/** Set when the editor sent an NPC node: its options and world replace the tavern's. */
let npcOptions: NPCOptions | undefined;
let initialWorld: object | undefined;
let personaLabel = 'Mira (sample)';
const cards = new Map<string, Card>();
const bubbles = new Map<TurnView, Card>();

// ---- set-up -----------------------------------------------------------------------------------

function showProblems(list: HTMLUListElement, problems: string[]): void {
  clear(list);
  for (const problem of problems) list.append(element('li', {}, problem));
  list.hidden = problems.length === 0;
}

function chosenPersona(): Persona | null {
  if (ui.personaSource.value === 'sample') {
    showProblems(ui.personaProblems, []);
    return SAMPLE_PERSONA;
  }
  const reading = readPersona(ui.personaText.value);
  showProblems(ui.personaProblems, reading.ok ? [] : reading.problems);
  return reading.ok ? reading.persona : null;
}

function chosenModel(): ModelChoice {
  const kind = ui.modelKind.value;
  if (kind === 'script') return { kind: 'script', script: ui.scriptText.value };
  if (kind === 'openai') return { kind: 'openai', url: ui.openaiUrl.value, model: ui.openaiModel.value };
  if (kind === CHROME_NANO_CHOICE) return { kind: 'chrome-nano' };
  if (ui.personaSource.value === 'sample') return { kind: 'standin' };
  // Another persona: a stand-in from its own fields, with the tools this conversation has.
  const persona = chosenPersona() ?? undefined;
  // The stand-in calls only tools without parameters (a keyword cannot choose arguments).
  const tools = [
    ...(npcOptions ? [] : TAVERN_TOOL_NAMES.map((name) => ({ name, parameterless: name === 'check_menu' }))),
    ...extraTools.map((tool) => ({
      name: tool.name,
      parameterless:
        !tool.parameters || Object.keys((tool.parameters as { properties?: object }).properties ?? {}).length === 0,
    })),
  ];
  return { kind: 'standin', persona, tools };
}

/** Lines the designer can click: the sample's evening, or lines from the persona's own fields. */
function renderSuggestions(lines: readonly string[]): void {
  clear(ui.suggestions);
  for (const line of lines) {
    const chip = element('button', { type: 'button', class: 'chip' }, line);
    chip.addEventListener('click', () => void talk(line));
    ui.suggestions.append(chip);
  }
}

function syncSetupFields(): void {
  ui.personaCustom.hidden = ui.personaSource.value !== 'custom';
  ui.modelScript.hidden = ui.modelKind.value !== 'script';
  ui.modelOpenai.hidden = ui.modelKind.value !== 'openai';
}

function renderByHandChoices(): void {
  clear(ui.byHandList);
  for (const name of npcOptions ? [] : TAVERN_TOOL_NAMES) {
    const box = element('input', { type: 'checkbox', value: name, id: `by-hand-${name}` });
    ui.byHandList.append(element('label', { class: 'check', for: `by-hand-${name}` }, box, element('code', {}, name)));
  }
  for (const tool of extraTools)
    ui.byHandList.append(
      element('span', { class: 'check fixed' }, element('code', {}, tool.name), ' (declared external)'),
    );
}

function answeredByHand(): string[] {
  return Array.from(ui.byHandList.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map(
    (box) => box.value,
  );
}

/** Builds a new conversation from the set-up; false (with the problems shown) when it is not valid. */
function startSession(): boolean {
  const persona = chosenPersona();
  const modelReading = createModel(chosenModel(), { chunkDelayMs: CHUNK_DELAY_MS });
  showProblems(ui.modelProblems, modelReading.ok ? [] : modelReading.problems);
  if (!persona || !modelReading.ok) {
    ui.setup.open = true;
    return false;
  }
  let next: PreviewSession;
  try {
    next = new PreviewSession({
      persona,
      model: modelReading.model,
      answerByHand: answeredByHand(),
      extraTools,
      npcOptions,
      initialWorld,
    });
  } catch (error) {
    showProblems(ui.modelProblems, [AgentError.from(error).message]);
    ui.setup.open = true;
    return false;
  }
  session?.close();
  session = next;
  if (ui.personaSource.value === 'sample') personaLabel = 'Mira (sample)';
  else personaLabel = persona.name;
  const summary = `${personaLabel} · ${modelReading.label}`;
  ui.setupSummary.textContent = summary;
  ui.now.textContent = summary;
  cards.clear();
  bubbles.clear();
  clear(ui.chat);
  clear(ui.steps);
  clear(ui.worldLog);
  const name = next.npc.persona.name;
  // Say plainly what answers: the stand-in is not a language model.
  if (ui.modelKind.value === 'standin')
    ui.chat.append(element('div', { class: 'standin-notice', id: 'standin-notice' }, STAND_IN_NOTICE));
  ui.chat.append(npcBubble(name, next.npc.persona.greeting || `${name} looks up.`, next.npc.persona.defaultEmotion));
  renderSuggestions(ui.personaSource.value === 'sample' ? EVENING : personaSuggestions(persona));
  renderWorld();
  renderState(ui.npcState, next.state());
  ui.resultsCard.hidden = true;
  setBusy(false);
  return true;
}

/** A server is checked when it is chosen (5 s): a dead one is reported at once, not after a turn. */
async function serverReachable(): Promise<boolean> {
  if (ui.modelKind.value !== 'openai') return true;
  const reading = createModel(chosenModel());
  if (!reading.ok) return true; // startSession shows the problem
  showProblems(ui.modelProblems, ['Checking the server (up to 5 s)…']);
  // One check at a time, and Apply waits for it: a late answer must not replace what the
  // designer chose since.
  ui.apply.disabled = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let answer: Awaited<ReturnType<LanguageModel['availability']>>;
  try {
    answer = await Promise.race([
      reading.model.availability(),
      new Promise<{ status: 'unavailable'; reason: string; detail: string }>((done) => {
        timer = setTimeout(
          () => done({ status: 'unavailable', reason: 'no answer', detail: 'nothing came back within 5 s' }),
          SERVER_CHECK_MS,
        );
      }),
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    ui.apply.disabled = false;
  }
  if (answer.status === 'available') {
    showProblems(ui.modelProblems, []);
    return true;
  }
  const why =
    answer.status === 'unavailable' ? `${answer.reason}${answer.detail ? `: ${answer.detail}` : ''}` : answer.status;
  showProblems(ui.modelProblems, [
    `model_unavailable: the server at ${ui.openaiUrl.value.trim()} is not reachable (${why}). Start llama.cpp, Ollama or LM Studio there, or pick the stand-in; the conversation so far stays.`,
  ]);
  ui.setup.open = true;
  return false;
}

// ---- conversations and persona tests as files ------------------------------------------------

async function readFileInput(input: HTMLInputElement): Promise<string | undefined> {
  const file = input.files?.[0];
  input.value = '';
  return file ? file.text() : undefined;
}

function showResults(title: string): HTMLElement {
  ui.resultsTitle.textContent = title;
  ui.resultsCard.hidden = false;
  return ui.results;
}

async function replayConversation(text: string): Promise<void> {
  let saved;
  try {
    saved = readConversationExport(text);
  } catch (error) {
    showResults('Replay').replaceChildren(
      element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message),
    );
    return;
  }
  if (!startSession()) return;
  const current = session as PreviewSession;
  for (const turn of saved.turns) {
    if (session !== current) return;
    await talk(turn.say);
  }
  renderReplay(showResults('Replay: then and now'), saved, current.turns);
}

async function runPersonaTestFile(text: string): Promise<void> {
  const persona = chosenPersona();
  const reading = createModel(chosenModel());
  const out = showResults('Persona test');
  if (!persona || !reading.ok) return;
  try {
    const test = readPersonaTest(text);
    out.replaceChildren(element('p', { class: 'help' }, 'Running…'));
    // The NPC as the conversation runs it: the editor NPC's world and declared tools, or the tavern's.
    const world = initialWorld ? new WorldState(initialWorld) : createTavernWorld();
    const declared = extraTools
      .filter((tool) => !tool.parametersError)
      .map((entry) =>
        AgentTool.local(
          { name: entry.name, description: entry.description, parameters: entry.parameters },
          () => '(a persona test does not run the game: this tool only records that it was called)',
        ),
      );
    const tools = [...(npcOptions ? [] : tavernTools(world)), ...declared];
    const report = await runPersonaTest({
      test,
      persona,
      model: reading.model,
      world,
      tools,
      options: npcOptions ?? TAVERN_NPC_OPTIONS,
    });
    renderPersonaReport(out, report, persona.name);
  } catch (error) {
    out.replaceChildren(element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message));
  }
}

// ---- talking ----------------------------------------------------------------------------------

async function talk(line: string): Promise<void> {
  const current = session;
  if (!current || current.isTalking) return;
  // An empty line is not sent, and the page says why instead of doing nothing.
  ui.talkHint.hidden = !!line.trim();
  ui.talkHint.textContent = line.trim() ? '' : 'Type what the player says first (or click a suggestion).';
  if (!line.trim()) return;
  ui.line.value = '';
  setBusy(true);
  await current.talk(line, (view) => {
    if (session !== current) return; // a new conversation replaced this one
    renderTurn(view, current);
    renderWorld();
    if (view.done) renderState(ui.npcState, current.state());
  });
  if (session === current) setBusy(false);
  ui.line.focus();
}

function setBusy(busy: boolean): void {
  ui.send.disabled = busy;
  ui.cancel.hidden = !busy;
  document.body.classList.toggle('busy', busy);
}

function npcBubble(name: string, line: string, emotion: string): HTMLElement {
  return element(
    'div',
    { class: 'msg npc' },
    element('div', { class: 'who' }, name, element('span', { class: `emotion e-${emotion}` }, emotion)),
    element('div', { class: 'text' }, line),
  );
}

function renderTurn(view: TurnView, current: PreviewSession): void {
  let bubble = bubbles.get(view);
  if (!bubble) {
    ui.chat.append(
      element(
        'div',
        { class: 'msg player' },
        element('div', { class: 'who' }, 'You'),
        element('div', { class: 'text' }, view.player),
      ),
    );
    bubble = npcTurnCard(view, current.npc.persona.name);
    bubbles.set(view, bubble);
    ui.chat.append(bubble.root);
  }
  bubble.update();
  ui.chat.scrollTop = ui.chat.scrollHeight;

  const turnNumber = current.turns.indexOf(view) + 1;
  const groupKey = `turn:${turnNumber}`;
  let group = cards.get(groupKey);
  if (!group) {
    group = turnGroup(view, turnNumber);
    cards.set(groupKey, group);
    ui.steps.prepend(group.root);
  }
  group.update();
  const list = group.root.querySelector('.items') as HTMLElement;
  for (const key of view.timeline) {
    const cardKey = `${groupKey}/${key}`;
    let card = cards.get(cardKey);
    if (!card) {
      card = key.startsWith('step:')
        ? stepCard(view.steps[Number(key.slice(5)) - 1])
        : toolCard(view.tools.find((candidate) => `tool:${candidate.id}` === key) as ToolView, current);
      cards.set(cardKey, card);
      list.append(card.root);
    }
    card.update();
  }
}

function npcTurnCard(view: TurnView, name: string): Card {
  const emotion = element('span', { class: 'emotion' });
  const text = element('div', { class: 'text' });
  const notice = element('div', { class: 'notice', role: 'alert' });
  const root = element(
    'div',
    { class: 'msg npc streaming' },
    element('div', { class: 'who' }, name, emotion),
    text,
    notice,
  );
  return {
    root,
    update() {
      // A finished turn without an emotion (failed, cancelled) shows no badge, never "…".
      const emotionText = view.emotion ?? (view.done ? '' : '…');
      emotion.textContent = emotionText;
      emotion.className = `emotion e-${emotionText}`;
      emotion.hidden = emotionText === '';
      text.textContent = view.line || (view.done ? '' : waitingText(view));
      root.classList.toggle('streaming', !view.done);
      root.classList.toggle('fallback', view.isFallback);
      root.classList.toggle('failed', !!view.error);
      const message = view.error
        ? `The turn failed: ${view.error}`
        : view.fallbackReason
          ? `The model could not answer, so ${name} said a fallback line. ${view.fallbackReason}`
          : '';
      notice.textContent = message;
      notice.hidden = !message;
    },
  };
}

/** "… 12 s · step 2 · retry 1": how long the model has been at it, and where. */
function waitingText(view: TurnView): string {
  const seconds = Math.floor((Date.now() - view.startedAt) / 1000);
  const step = view.steps.length;
  const last = view.steps[step - 1];
  const parts = [`… ${seconds} s`];
  if (step > 1) parts.push(`step ${step}`);
  if (last && last.attempt > 0) parts.push(`retry ${last.attempt}`);
  if (view.tools.some((tool) => tool.status === 'waiting')) parts.push('waiting for your answer');
  return parts.join(' · ');
}

// The waiting bubble's clock ticks while a turn runs.
setInterval(() => {
  for (const [view, card] of bubbles) if (!view.done && !view.line) card.update();
}, 1000);

function turnGroup(view: TurnView, turnNumber: number): Card {
  const totals = element('span', { class: 'totals' });
  const root = element(
    'section',
    { class: 'turn-group' },
    element(
      'div',
      { class: 'turn-head' },
      element('span', { class: 'turn-no' }, `Turn ${turnNumber}`),
      element('q', {}, view.player),
      totals,
    ),
    element('div', { class: 'items' }),
  );
  return {
    root,
    update() {
      totals.textContent = turnTotals(view);
    },
  };
}

function stepCard(step: StepView): Card {
  const nums = element('span', { class: 'nums' });
  const output = element('code', { class: 'output' });
  const promptText = [
    step.systemInstruction && `── system instruction ──\n${step.systemInstruction}`,
    step.promptPrefix && `── stable prefix (cacheable) ──\n${step.promptPrefix}`,
    `── prompt ──\n${step.prompt}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const root = element(
    'div',
    { class: 'item step' },
    element(
      'div',
      { class: 'item-head' },
      element('span', { class: 'badge kind' }, step.kind),
      element('strong', {}, `Step ${step.number}`),
      step.isRepair ? element('span', { class: 'badge repair' }, 'repair') : null,
      step.attempt > 0 ? element('span', { class: 'badge retry' }, `retry ${step.attempt}`) : null,
      nums,
    ),
    element(
      'details',
      { class: 'prompt' },
      element('summary', {}, `Prompt sent · ${step.promptTokens} tokens (estimate)`),
      element('pre', {}, promptText),
    ),
    element('div', { class: 'out' }, element('span', { class: 'label' }, 'output'), output),
  );
  return {
    root,
    update() {
      const out = step.outputTokens !== undefined ? `${step.outputTokens} out` : step.failed ? 'failed' : 'running…';
      nums.textContent = `${step.promptTokens} in · ${out}`;
      root.classList.toggle('failed', !!step.failed);
      output.textContent = step.output !== undefined ? step.output.trim() : step.failed ? '(no answer)' : '…';
    },
  };
}

function toolCard(tool: ToolView, current: PreviewSession): Card {
  const status = element('span', { class: 'status' });
  const result = element('code', { class: 'result' });
  const resultRow = element('div', { class: 'out' }, element('span', { class: 'label' }, 'result'), result);
  const input = element('input', {
    type: 'text',
    class: 'answer-input',
    placeholder: 'Your answer (JSON or text), e.g. {"ok": true}',
    'aria-label': `Answer ${tool.name}`,
  });
  const form = element(
    'form',
    { class: 'answer' },
    input,
    element('button', { type: 'submit', class: 'primary small' }, 'Answer'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    current.answer(tool.id, input.value);
  });
  const root = element(
    'div',
    { class: 'item tool' },
    element(
      'div',
      { class: 'item-head' },
      element('span', { class: 'badge toolb' }, tool.external ? 'external tool' : 'tool'),
      element('strong', { class: 'tool-name' }, tool.name),
      status,
    ),
    element(
      'div',
      { class: 'out' },
      element('span', { class: 'label' }, 'args'),
      element('code', { class: 'args' }, compactJson(tool.args, 400)),
    ),
    resultRow,
    form,
  );
  return {
    root,
    update() {
      status.textContent = tool.status;
      status.className = `status s-${tool.status}`;
      result.textContent = tool.result ?? '';
      resultRow.hidden = tool.result === undefined;
      form.hidden = tool.status !== 'waiting';
      if (tool.status === 'waiting' && document.activeElement !== input) input.focus();
    },
  };
}

// ---- world ------------------------------------------------------------------------------------

function renderWorld(): void {
  if (!session) return;
  clear(ui.worldView);
  const current = session;
  renderEditableWorld(ui.worldView, current, () => {
    renderWorld();
    renderState(ui.npcState, current.state());
  });
  // Append only the changes not shown yet: the log grows, it is never rebuilt.
  const shown = ui.worldLog.querySelectorAll('li.change').length;
  for (const worldChange of session.worldChanges.slice(shown)) {
    ui.worldLog.append(
      element(
        'li',
        { class: 'change' },
        element('span', { class: 'turn-no' }, worldChange.byDesigner ? 'you' : `turn ${worldChange.turn}`),
        ' ',
        element('code', {}, describeChange(worldChange)),
      ),
    );
  }
  const empty = ui.worldLog.querySelector('li.empty');
  if (session.worldChanges.length > 0) empty?.remove();
  else if (!empty) ui.worldLog.append(element('li', { class: 'muted empty' }, 'No changes yet.'));
}

// ---- wiring -----------------------------------------------------------------------------------

function applyEmbedSettings(data: unknown): void {
  const message = readEmbedMessage(data);
  if (!message) return;
  if (message.openaiUrl !== undefined) ui.openaiUrl.value = message.openaiUrl;
  if (message.openaiModel !== undefined) ui.openaiModel.value = message.openaiModel;
  if (message.extraTools) extraTools = message.extraTools;
  if (message.persona !== undefined) {
    // A new persona from the editor: an NPC node brings its options and world, an asset neither.
    npcOptions = message.npcOptions as NPCOptions | undefined;
    initialWorld = message.initialWorld;
    ui.personaSource.value = 'custom';
    ui.personaText.value =
      typeof message.persona === 'string' ? message.persona : JSON.stringify(message.persona, null, 2);
  }
  if (message.modelKind) ui.modelKind.value = message.modelKind;
  syncSetupFields();
  renderByHandChoices();
  startSession();
}

function init(): void {
  ui.scriptText.value = SAMPLE_SCRIPT;
  // Only the editor's file panel sets the server by address: any website could open the served
  // page with ?openaiUrl= pointing at its own server (the Host check does not stop a top-level load).
  const query = window.location.protocol === 'file:' ? readQuerySettings(window.location.search) : {};
  if (query.openaiUrl) ui.openaiUrl.value = query.openaiUrl;
  if (query.openaiModel) ui.openaiModel.value = query.openaiModel;
  renderByHandChoices();
  syncSetupFields();
  ui.personaSource.addEventListener('change', syncSetupFields);
  ui.modelKind.addEventListener('change', syncSetupFields);
  void offerChromeNano(ui.modelKind); // only in a browser that has Chrome's built-in model
  ui.personaFile.addEventListener('change', async () => {
    const file = ui.personaFile.files?.[0];
    if (!file) return;
    ui.personaText.value = await file.text();
    chosenPersona();
  });
  ui.apply.addEventListener('click', () => {
    void serverReachable().then((ok) => {
      if (ok && startSession()) ui.setup.open = false;
    });
  });
  ui.exportSession.addEventListener('click', () => {
    if (session) downloadConversation(session.exportConversation());
  });
  ui.replayFile.addEventListener(
    'change',
    () => void readFileInput(ui.replayFile).then((text) => (text === undefined ? undefined : replayConversation(text))),
  );
  ui.personaTestFile.addEventListener(
    'change',
    () =>
      void readFileInput(ui.personaTestFile).then((text) =>
        text === undefined ? undefined : runPersonaTestFile(text),
      ),
  );
  ui.talkForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void talk(ui.line.value);
  });
  ui.cancel.addEventListener('click', () => session?.cancel());
  window.addEventListener('message', (event) => {
    const sender = {
      origin: event.origin,
      fromParent: event.source === window.parent && window.parent !== window,
      ownOrigin: window.location.origin,
      ownProtocol: window.location.protocol,
    };
    if (isTrustedSender(sender)) applyEmbedSettings(event.data);
  });
  startSession();
  ui.line.focus();
}

init();
