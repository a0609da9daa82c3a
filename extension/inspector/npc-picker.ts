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

export function renderNpcPicker({ el, t, source, onChange }: NpcPickerOptions): NpcPicker {
  let setup: MeterSetup | string | null = null;
  let chosen: SceneNpc | undefined;
  let listed: SceneNpc[] = [];
  // Answers that arrive after a newer request (or after close) are dropped.
  let ticket = 0;
  let disposed = false;

  const element = el('div', { class: 'npc-choice', 'data-role': 'scene-npc-box' });
  const select = el('select', { 'data-role': 'scene-npc' });
  const refresh = el('button', { type: 'button', 'data-action': 'refresh-npcs' }, t('persona.meter.npc.refresh'));
  const status = el('div', { class: 'problem', 'data-role': 'scene-npc-problem' });
  const notes = el('div', { class: 'note', 'data-role': 'scene-npc-notes' });
  element.append(select, refresh, status, notes);

  const label = (npc: SceneNpc): string => {
    const where = npc.path && npc.path !== npc.name ? `${npc.name} (${npc.path})` : npc.name || npc.nodeUuid;
    return npc.usesThisPersona ? `★ ${where} · ${t('persona.meter.npc.thisPersona')}` : where;
  };

  function choose(nodeUuid: string): void {
    const mine = ++ticket;
    notes.textContent = '';
    setup = null;
    chosen = listed.find((npc) => npc.nodeUuid === nodeUuid);
    if (!nodeUuid) {
      onChange();
      return;
    }
    status.textContent = t('persona.meter.npc.loading');
    source.load(nodeUuid).then(
      (result) => {
        if (disposed || mine !== ticket) return;
        status.textContent = '';
        setup = result.ok ? result.setup : result.message;
        notes.textContent = result.ok ? result.notes.join(' · ') : '';
        onChange();
      },
      (error: unknown) => {
        if (disposed || mine !== ticket) return;
        status.textContent = '';
        setup = errorMessage(error);
        onChange();
      },
    );
    onChange();
  }

  function list(): Promise<boolean | null> {
    const mine = ++ticket;
    const previous = select.value;
    status.textContent = t('persona.meter.npc.listing');
    return source.list().then(
      (found) => {
        if (disposed || mine !== ticket) return found.some((npc) => npc.usesThisPersona);
        listed = found;
        select.textContent = '';
        select.appendChild(el('option', { value: '' }, t('persona.meter.npc.choose')));
        for (const npc of found)
          select.appendChild(
            el('option', { value: npc.nodeUuid, 'data-this-persona': String(npc.usesThisPersona) }, label(npc)),
          );
        status.textContent = found.length === 0 ? t('persona.meter.npc.none') : '';
        const keep = found.find((npc) => npc.nodeUuid === previous) ?? found.find((npc) => npc.usesThisPersona);
        select.value = keep ? keep.nodeUuid : '';
        choose(keep ? keep.nodeUuid : '');
        return found.some((npc) => npc.usesThisPersona);
      },
      (error: unknown) => {
        if (disposed || mine !== ticket) return null;
        listed = [];
        select.textContent = '';
        status.textContent = t('persona.meter.npc.noScene', { reason: errorMessage(error) });
        choose('');
        return null;
      },
    );
  }

  refresh.addEventListener('click', () => {
    void list();
  });
  select.addEventListener('change', () => choose(select.value));

  return {
    element,
    list,
    setup: () => setup,
    chosenLabel: () => (chosen ? chosen.path || chosen.name || chosen.nodeUuid : ''),
    dispose: () => {
      disposed = true;
    },
  };
}
