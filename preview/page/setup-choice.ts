/**
 * What the set-up box names, read afresh each time: the persona (with its problems shown), the
 * profile it plays (a sample, a loaded file, a bare persona, or the NPC node the editor sent) and
 * the model that answers.
 */
import {
  AgentError,
  AgentTool,
  WorldState,
  type LanguageModel,
  type NPCOptions,
  type NPCProfileParts,
  type Persona,
} from '../../src';
import { element, clear } from './dom';
import { ui } from './page-ui';
import { readPersona } from './persona-source';
import { CHROME_NANO_CHOICE, createModel, type ModelChoice } from './model-choice';
import type { ExtraToolDeclaration } from './preview-session';
import type { PageBake } from './bank-review';
import { SAMPLE_PROFILES, bareProfile, loadPageProfile, pageStandIn, sampleProfile } from './page-profiles';

/** How long a chosen server may take to answer the connection check. */
const SERVER_CHECK_MS = 5000;

/** Set when the editor sent an NPC node: its options, world and declared tools replace a profile's. */
export const editorNpc: { extraTools: ExtraToolDeclaration[]; npcOptions?: NPCOptions; initialWorld?: object } = {
  extraTools: [],
};

export function showProblems(list: HTMLUListElement, problems: string[]): void {
  clear(list);
  for (const problem of problems) list.append(element('li', {}, problem));
  list.hidden = problems.length === 0;
}

export function chosenPersona(): Persona | null {
  const reading = readPersona(ui.personaText.value);
  showProblems(ui.personaProblems, reading.ok ? [] : reading.problems);
  return reading.ok ? reading.persona : null;
}

export type ProfileReading = ChosenProfile | { ok: false; problems: string[] };

/** A profile the set-up can play, with the sample file it came from (a persona test names it). */
export type ChosenProfile = { ok: true; parts: NPCProfileParts; file?: string; label: string };

/** The profile the set-up names, loaded afresh (its world is new); a bare persona's for "A persona only". */
export function chosenProfile(persona: Persona | null): ProfileReading {
  const source = ui.personaSource.value;
  const sample =
    source === 'sample'
      ? SAMPLE_PROFILES[0]
      : source.startsWith('profile:')
        ? sampleProfile(source.slice(8))
        : undefined;
  try {
    if (sample) return { ok: true, parts: loadPageProfile(sample.profile), file: sample.file, label: sample.label };
    if (source === 'profile-file') {
      const parts = loadPageProfile(ui.profileText.value);
      return { ok: true, parts, label: `${parts.persona.name} (loaded profile)` };
    }
  } catch (error) {
    return { ok: false, problems: [`profile: ${AgentError.from(error).message}`] };
  }
  if (!persona) return { ok: false, problems: [] };
  if (editorNpc.npcOptions)
    return { ok: true, parts: embeddedParts(persona), label: `${persona.name} (from the editor)` };
  return { ok: true, parts: bareProfile(persona), label: `${persona.name} (persona only: no tools, an empty world)` };
}

/** An NPC node sent by the editor: its options and world, its declared tools (recorded, not run). */
function embeddedParts(persona: Persona): NPCProfileParts {
  const tools = editorNpc.extraTools
    .filter((tool) => !tool.parametersError)
    .map((entry) =>
      AgentTool.local(
        { name: entry.name, description: entry.description, parameters: entry.parameters },
        () => '(the preview does not run the game: this tool only records that it was called)',
      ),
    );
  return {
    persona,
    tools,
    world: new WorldState(editorNpc.initialWorld ?? {}),
    options: editorNpc.npcOptions ?? {},
    standInTools: [],
    profile: { persona },
  };
}

export function chosenModel(): ModelChoice {
  const kind = ui.modelKind.value;
  if (kind === 'script') return { kind: 'script', script: ui.scriptText.value };
  if (kind === 'openai') return { kind: 'openai', url: ui.openaiUrl.value, model: ui.openaiModel.value };
  if (kind === CHROME_NANO_CHOICE) return { kind: 'chrome-nano' };
  // An NPC from the editor: a stand-in from its own fields, with its declared tools.
  const persona = chosenPersona() ?? undefined;
  // The stand-in calls only tools without parameters (a keyword cannot choose arguments).
  const tools = editorNpc.extraTools.map((tool) => ({
    name: tool.name,
    parameterless:
      !tool.parameters || Object.keys((tool.parameters as { properties?: object }).properties ?? {}).length === 0,
  }));
  return { kind: 'standin', persona, tools };
}

/** The model of the set-up: a profile's own stand-in, or what the model box names. */
export function setupModel(
  parts: NPCProfileParts | undefined,
  persona: Persona,
  chunkDelayMs: number,
): ReturnType<typeof createModel> {
  if (ui.modelKind.value !== 'standin' || !parts || editorNpc.npcOptions)
    return createModel(chosenModel(), { chunkDelayMs });
  try {
    const model = pageStandIn(parts, persona, chunkDelayMs);
    return { ok: true, model, label: `keyword stand-in for ${persona.name}` };
  } catch (error) {
    return { ok: false, problems: [`model: ${AgentError.from(error).message}`] };
  }
}

/** A server is checked when it is chosen (5 s): a dead one is reported at once, not after a turn. */
export async function serverReachable(): Promise<boolean> {
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

/** What a bake in the page plays: the set-up's persona, its profile's tools and a fresh world per line, its model. */
export function bankBake(): PageBake | string {
  const persona = chosenPersona();
  const profile = chosenProfile(persona);
  if (!persona || !profile.ok) return 'Fix the set-up first (see above).';
  const reading = setupModel(profile.parts, persona, 0);
  if (!reading.ok) return reading.problems.join(' ');
  return {
    persona,
    model: reading.model,
    options: profile.parts.options,
    setup: () => {
      const fresh = chosenProfile(persona);
      return fresh.ok ? { tools: fresh.parts.tools, world: fresh.parts.world } : {};
    },
  };
}
