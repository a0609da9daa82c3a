/**
 * The meter's scene-NPC picker: the open scene's NPC nodes (those using the edited persona
 * marked and preferred), re-listed on demand because the scene changes, and the chosen node's
 * set-up read through the editor.
 */
import type { MeterSetup } from '../token-meter/token-meter';
import type { Translate } from '../persona/i18n';
import type { SceneNpc, SceneNpcSource } from './scene-npcs';
import { errorMessage } from './dom';
import type { MakeElement } from './dom';

export interface NpcPicker {
  element: HTMLElement;
  /**
   * Lists the scene's NPCs again and chooses one: the one chosen before, else the first using
   * this persona. Resolves with whether an NPC of the scene uses this persona (null: no scene).
   */
  list(): Promise<boolean | null>;
  /** The chosen NPC's set-up, why it cannot be measured (a string), or null before a choice. */
  setup(): MeterSetup | string | null;
  /** How the chosen NPC is named in the meter's sentence. */
  chosenLabel(): string;
  dispose(): void;
}

export interface NpcPickerOptions {
  el: MakeElement;
  t: Translate;
  source: SceneNpcSource;
  /** After the set-up changed (chosen, read or cleared). */
  onChange(): void;
}

/** The picker's elements and what it holds now. */
interface PickerParts {
  el: MakeElement;
  t: Translate;
  source: SceneNpcSource;
  onChange(): void;
  select: HTMLSelectElement;
  status: HTMLElement;
  notes: HTMLElement;
  setup: MeterSetup | string | null;
  chosen: SceneNpc | undefined;
  listed: SceneNpc[];
  // Answers that arrive after a newer request (or after close) are dropped.
  ticket: number;
  disposed: boolean;
}

export function renderNpcPicker({ el, t, source, onChange }: NpcPickerOptions): NpcPicker {
  const element = el('div', { class: 'npc-choice', 'data-role': 'scene-npc-box' });
  const select = el('select', { 'data-role': 'scene-npc' });
  const refresh = el('button', { type: 'button', 'data-action': 'refresh-npcs' }, t('persona.meter.npc.refresh'));
  const status = el('div', { class: 'problem', 'data-role': 'scene-npc-problem' });
  const notes = el('div', { class: 'note', 'data-role': 'scene-npc-notes' });
  element.append(select, refresh, status, notes);
  const parts: PickerParts = {
    el,
    t,
    source,
    onChange,
    select,
    status,
    notes,
    setup: null,
    chosen: undefined,
    listed: [],
    ticket: 0,
    disposed: false,
  };

  refresh.addEventListener('click', () => {
    void listNpcs(parts);
  });
  select.addEventListener('change', () => choose(parts, select.value));

  return {
    element,
    list: () => listNpcs(parts),
    setup: () => parts.setup,
    chosenLabel: () => (parts.chosen ? parts.chosen.path || parts.chosen.name || parts.chosen.nodeUuid : ''),
    dispose: () => {
      parts.disposed = true;
    },
  };
}

function npcLabel(translate: Translate, npc: SceneNpc): string {
  const where = npc.path && npc.path !== npc.name ? `${npc.name} (${npc.path})` : npc.name || npc.nodeUuid;
  return npc.usesThisPersona ? `★ ${where} · ${translate('persona.meter.npc.thisPersona')}` : where;
}

/** Chooses the NPC `nodeUuid` ('' for none) and reads its set-up through the editor. */
function choose(parts: PickerParts, nodeUuid: string): void {
  const mine = ++parts.ticket;
  const { status, notes, onChange } = parts;
  notes.textContent = '';
  parts.setup = null;
  parts.chosen = parts.listed.find((npc) => npc.nodeUuid === nodeUuid);
  if (!nodeUuid) {
    onChange();
    return;
  }
  status.textContent = parts.t('persona.meter.npc.loading');
  parts.source.load(nodeUuid).then(
    (result) => {
      if (parts.disposed || mine !== parts.ticket) return;
      status.textContent = '';
      parts.setup = result.ok ? result.setup : result.message;
      notes.textContent = result.ok ? result.notes.join(' · ') : '';
      onChange();
    },
    (error: unknown) => {
      if (parts.disposed || mine !== parts.ticket) return;
      status.textContent = '';
      parts.setup = errorMessage(error);
      onChange();
    },
  );
  onChange();
}

function listNpcs(parts: PickerParts): Promise<boolean | null> {
  const mine = ++parts.ticket;
  const { el, t, select, status } = parts;
  const previous = select.value;
  status.textContent = t('persona.meter.npc.listing');
  return parts.source.list().then(
    (found) => {
      if (parts.disposed || mine !== parts.ticket) return found.some((npc) => npc.usesThisPersona);
      parts.listed = found;
      select.textContent = '';
      select.appendChild(el('option', { value: '' }, t('persona.meter.npc.choose')));
      for (const npc of found)
        select.appendChild(
          el('option', { value: npc.nodeUuid, 'data-this-persona': String(npc.usesThisPersona) }, npcLabel(t, npc)),
        );
      status.textContent = found.length === 0 ? t('persona.meter.npc.none') : '';
      const keep = found.find((npc) => npc.nodeUuid === previous) ?? found.find((npc) => npc.usesThisPersona);
      select.value = keep ? keep.nodeUuid : '';
      choose(parts, keep ? keep.nodeUuid : '');
      return found.some((npc) => npc.usesThisPersona);
    },
    (error: unknown) => {
      if (parts.disposed || mine !== parts.ticket) return null;
      parts.listed = [];
      select.textContent = '';
      status.textContent = t('persona.meter.npc.noScene', { reason: errorMessage(error) });
      choose(parts, '');
      return null;
    },
  );
}
