/// <reference lib="dom" />
/**
 * The preview page: pick a persona and a model, talk, and watch what the NPC does. Runs the
 * real core in the browser; the editor panel hosts this same page and sends it the persona of
 * the selected NPC (see `embed-message.ts`).
 */
import { AgentError, type NPCOptions } from '../../src';
import { STAND_IN_NOTICE, personaSuggestions } from '../../src/testing';
import { EVENING } from '../../demo/tavern/evening';
import { element, clear } from './dom';
import { readFileInput, showResults, ui } from './page-ui';
import { TurnCards, npcGreeting } from './turn-cards';
import { readPersona } from './persona-source';
import { createModel, offerChromeNano } from './model-choice';
import { SAMPLE_SCRIPT } from './script-source';
import { PreviewSession } from './preview-session';
import { readConversationExport } from './conversation-export';
import { isTrustedSender, readEmbedMessage, readQuerySettings } from './embed-message';
import { renderState } from './state-panel';
import { renderEditableWorld, renderWorldLog } from './world-editor';
import { downloadConversation, downloadJson, renderPersonaReport, renderReplay } from './session-files';
import { renderPersonaForm } from './persona-form';
import { renderMeter } from './meter-panel';
import { runPagePersonaTest } from './page-persona-test';
import { isReplayBundleText, replayBundleInto } from './bundle-replay';
import { reviewBankText } from './bank-review';
import {
  chosenModel,
  chosenPersona,
  bankBake,
  chosenProfile,
  editorNpc,
  serverReachable,
  setupModel,
  showProblems,
  type ChosenProfile,
} from './setup-choice';
import { conversationAsPersonaTest } from './conversation-test';

/** A small pause between streamed chunks of the local models, so the line visibly streams. */
const CHUNK_DELAY_MS = 45;

let session: PreviewSession | null = null;
let personaLabel = 'Mira (sample)';
/** The profile the conversation runs, for "Save as persona test". */
let sessionProfile: ChosenProfile | undefined;
const turnCards = new TurnCards(ui.chat, ui.steps);

// ---- set-up -----------------------------------------------------------------------------------

/** The persona form and the token meter for what the set-up would play now. */
function renderPersonaTools(): void {
  renderPersonaForm(ui.personaForm, ui.personaText, () => renderMeterNow());
  renderMeterNow();
}

function renderMeterNow(): void {
  const persona = readPersona(ui.personaText.value);
  if (!persona.ok) {
    clear(ui.personaMeter);
    return;
  }
  const profile = chosenProfile(persona.persona);
  const relationship = session ? session.state().relationship : undefined;
  if (profile.ok) renderMeter(ui.personaMeter, { persona: persona.persona, parts: profile.parts, relationship });
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
  const source = ui.personaSource.value;
  ui.profileCustom.hidden = source !== 'profile-file';
  ui.modelScript.hidden = ui.modelKind.value !== 'script';
  ui.modelOpenai.hidden = ui.modelKind.value !== 'openai';
  // A persona pasted by hand is edited as JSON; a profile's persona fills the boxes to start from.
  if (source === 'custom') {
    ui.personaBox.open = true;
    ui.personaJson.open = true;
  }
}

/** A new choice in the NPC box: its persona fills the form, its tools the hand-answer list. */
function sourceChanged(): void {
  syncSetupFields();
  if (ui.personaSource.value !== 'custom') {
    const profile = chosenProfile(null);
    showProblems(ui.personaProblems, profile.ok || profile.problems.length === 0 ? [] : profile.problems);
    if (profile.ok) ui.personaText.value = `${JSON.stringify(profile.parts.persona, null, 2)}\n`;
  }
  renderByHandChoices();
  renderPersonaTools();
}

function renderByHandChoices(): void {
  clear(ui.byHandList);
  const profile = editorNpc.npcOptions
    ? undefined
    : chosenProfile(readPersona(ui.personaText.value).ok ? chosenPersona() : null);
  const names = profile && profile.ok ? profile.parts.tools.map((tool) => tool.name) : [];
  for (const name of names) {
    const box = element('input', { type: 'checkbox', value: name, id: `by-hand-${name}` });
    ui.byHandList.append(element('label', { class: 'check', for: `by-hand-${name}` }, box, element('code', {}, name)));
  }
  for (const tool of editorNpc.extraTools)
    ui.byHandList.append(
      element('span', { class: 'check fixed' }, element('code', {}, tool.name), ' (declared external)'),
    );
  if (names.length === 0 && editorNpc.extraTools.length === 0)
    ui.byHandList.append(element('span', { class: 'muted' }, 'This NPC has no game tools.'));
}

function answeredByHand(): string[] {
  return Array.from(ui.byHandList.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map(
    (box) => box.value,
  );
}

/** Builds a new conversation from the set-up; false (with the problems shown) when it is not valid. */
function startSession(): boolean {
  const persona = chosenPersona();
  const profile = chosenProfile(persona);
  if (!profile.ok && profile.problems.length > 0) showProblems(ui.personaProblems, profile.problems);
  const modelReading = persona && profile.ok ? setupModel(profile.parts, persona, CHUNK_DELAY_MS) : null;
  showProblems(ui.modelProblems, modelReading && !modelReading.ok ? modelReading.problems : []);
  if (!persona || !profile.ok || !modelReading || !modelReading.ok) {
    ui.setup.open = true;
    return false;
  }
  let next: PreviewSession;
  try {
    next = new PreviewSession({
      persona,
      model: modelReading.model,
      profile: editorNpc.npcOptions ? undefined : profile.parts,
      answerByHand: answeredByHand(),
      extraTools: editorNpc.extraTools,
      npcOptions: editorNpc.npcOptions,
      initialWorld: editorNpc.initialWorld,
    });
  } catch (error) {
    showProblems(ui.modelProblems, [AgentError.from(error).message]);
    ui.setup.open = true;
    return false;
  }
  session?.close();
  session = next;
  sessionProfile = profile;
  personaLabel = persona.name === profile.parts.persona.name ? profile.label : `${persona.name} with ${profile.label}`;
  const summary = `${personaLabel} · ${modelReading.label}`;
  ui.setupSummary.textContent = summary;
  ui.now.textContent = summary;
  turnCards.clear();
  clear(ui.chat);
  clear(ui.steps);
  clear(ui.worldLog);
  const name = next.npc.persona.name;
  // Say plainly what answers: the stand-in is not a language model.
  if (ui.modelKind.value === 'standin')
    ui.chat.append(element('div', { class: 'standin-notice', id: 'standin-notice' }, STAND_IN_NOTICE));
  ui.chat.append(npcGreeting(name, next.npc.greeting || `${name} looks up.`, next.npc.persona.defaultEmotion));
  const own = profile.parts.profile.playerLines;
  renderSuggestions(
    own && own.length > 0 ? own : profile.parts.profile.standIn === 'tavern' ? EVENING : personaSuggestions(persona),
  );
  renderWorld();
  renderNpcState();
  renderMeterNow();
  ui.resultsCard.hidden = true;
  setBusy(false);
  return true;
}

/** The state panel, editable between turns; an edit re-renders it and the meter (a stage changes the prompt). */
function renderNpcState(): void {
  const current = session;
  if (!current) return;
  renderState(ui.npcState, current.state(), (edit) => {
    const problem = current.editMemory(edit);
    if (!problem && session === current) {
      renderNpcState();
      renderMeterNow();
    }
    return problem;
  });
}

// ---- conversations and persona tests as files ------------------------------------------------

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
  const out = showResults('Persona test');
  const persona = chosenPersona();
  const profile = chosenProfile(persona);
  if (!persona || !profile.ok) {
    out.replaceChildren(element('p', { class: 'problems', role: 'alert' }, 'Fix the set-up first (see above).'));
    return;
  }
  // The stand-in of whatever the test runs; another model as the set-up names it.
  const reading = ui.modelKind.value === 'standin' && !editorNpc.npcOptions ? null : createModel(chosenModel());
  if (reading && !reading.ok) {
    out.replaceChildren(element('p', { class: 'problems', role: 'alert' }, reading.problems.join(' ')));
    return;
  }
  out.replaceChildren(element('p', { class: 'help' }, 'Running…'));
  try {
    const run = await runPagePersonaTest(text, { parts: profile.parts, persona, model: reading?.model });
    out.replaceChildren();
    renderPersonaReport(out, run.report, run.persona.name);
    out.prepend(element('p', { class: 'help', id: 'persona-test-setup' }, `Ran with ${run.ranWith}.`));
  } catch (error) {
    out.replaceChildren(element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message));
  }
}

/** The conversation so far as a persona test file (its profile by file name for a sample). */
function saveAsPersonaTest(): void {
  if (!session || !sessionProfile) return;
  const conversation = session.exportConversation();
  if (conversation.turns.length === 0) {
    showResults('Save as persona test').replaceChildren(
      element('p', { class: 'help' }, 'Talk first: each turn of the conversation becomes a turn of the test.'),
    );
    return;
  }
  const test = conversationAsPersonaTest({
    conversation,
    profile:
      conversation.persona.name === sessionProfile.parts.persona.name && !editorNpc.npcOptions
        ? { ...sessionProfile.parts.profile, persona: sessionProfile.parts.persona }
        : undefined,
    toolNames: sessionProfile.parts.tools.map((tool) => tool.name),
  });
  const name = conversation.persona.name.replace(/[^\w-]+/g, '-').toLowerCase() || 'npc';
  downloadJson(test, `${name}.persona-test.json`);
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
    turnCards.render(view, current);
    renderWorld();
    if (view.done) renderNpcState();
  });
  if (session === current) setBusy(false);
  ui.line.focus();
}

function setBusy(busy: boolean): void {
  ui.send.disabled = busy;
  ui.cancel.hidden = !busy;
  document.body.classList.toggle('busy', busy);
}

// ---- world ------------------------------------------------------------------------------------

function renderWorld(): void {
  if (!session) return;
  clear(ui.worldView);
  const current = session;
  renderEditableWorld(ui.worldView, current, () => {
    renderWorld();
    renderNpcState();
  });
  renderWorldLog(ui.worldLog, current.worldChanges);
}

// ---- wiring -----------------------------------------------------------------------------------

function applyEmbedSettings(data: unknown): void {
  const message = readEmbedMessage(data);
  if (!message) return;
  if (message.openaiUrl !== undefined) ui.openaiUrl.value = message.openaiUrl;
  if (message.openaiModel !== undefined) ui.openaiModel.value = message.openaiModel;
  if (message.extraTools) editorNpc.extraTools = message.extraTools;
  if (message.persona !== undefined) {
    // A new persona from the editor: an NPC node brings its options and world, an asset neither.
    editorNpc.npcOptions = message.npcOptions as NPCOptions | undefined;
    editorNpc.initialWorld = message.initialWorld;
    ui.personaSource.value = 'custom';
    ui.personaText.value =
      typeof message.persona === 'string' ? message.persona : JSON.stringify(message.persona, null, 2);
  }
  if (message.modelKind) ui.modelKind.value = message.modelKind;
  syncSetupFields();
  renderByHandChoices();
  renderPersonaTools();
  startSession();
}

function init(): void {
  ui.scriptText.value = SAMPLE_SCRIPT;
  // Only the editor's file panel sets the server by address: any website could open the served
  // page with ?openaiUrl= pointing at its own server (the Host check does not stop a top-level load).
  const query = window.location.protocol === 'file:' ? readQuerySettings(window.location.search) : {};
  if (query.openaiUrl) ui.openaiUrl.value = query.openaiUrl;
  if (query.openaiModel) ui.openaiModel.value = query.openaiModel;
  sourceChanged();
  ui.personaSource.addEventListener('change', sourceChanged);
  ui.personaText.addEventListener('input', renderPersonaTools);
  ui.profileText.addEventListener('input', sourceChanged);
  ui.profileFile.addEventListener('change', async () => {
    const text = await readFileInput(ui.profileFile);
    if (text === undefined) return;
    ui.profileText.value = text;
    sourceChanged();
  });
  ui.saveAsTest.addEventListener('click', saveAsPersonaTest);
  ui.resultsClose.addEventListener('click', () => (ui.resultsCard.hidden = true));
  ui.modelKind.addEventListener('change', syncSetupFields);
  void offerChromeNano(ui.modelKind); // only in a browser that has Chrome's built-in model
  ui.personaFile.addEventListener('change', async () => {
    const file = ui.personaFile.files?.[0];
    if (!file) return;
    ui.personaText.value = await file.text();
    chosenPersona();
    renderPersonaTools();
  });
  ui.apply.addEventListener('click', () => {
    void serverReachable().then((ok) => {
      if (ok && startSession()) ui.setup.open = false;
    });
  });
  ui.exportSession.addEventListener('click', () => {
    if (session) downloadConversation(session.exportConversation());
  });
  ui.replayFile.addEventListener('change', () => {
    void readFileInput(ui.replayFile).then(async (text) => {
      if (text === undefined) return;
      // A bundle from a phone's QA overlay replays on its own; a page export against the NPC as it is now.
      if (isReplayBundleText(text)) await replayBundleInto(showResults('Replay bundle'), text);
      else await replayConversation(text);
    });
  });
  ui.personaTestFile.addEventListener(
    'change',
    () =>
      void readFileInput(ui.personaTestFile).then((text) =>
        text === undefined ? undefined : runPersonaTestFile(text),
      ),
  );
  ui.bankFile.addEventListener('change', () => {
    void readFileInput(ui.bankFile).then((text) => {
      if (text !== undefined) reviewBankText(showResults('Line bank review'), text, bankBake);
    });
  });
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
