/**
 * Which messages the inspector shows, and where: the form's own problems, then the file's for
 * fields not edited since it was loaded (the form may read a bad value as another), worded,
 * each under its field (or on top, for the whole persona), each text once.
 */
import { fieldOfProblem } from '../persona/form-model';
import type { FormField } from '../persona/form-model';
import { problemText } from '../persona/problem-text';
import type { PersonaProblem } from '../../src/game/persona';
import type { Translate } from '../persona/i18n';
import type { SaveCheck } from './save-section';

export interface ShownProblems {
  byField: Map<FormField, string[]>;
  /** Messages about the whole persona, shown on top. */
  general: string[];
  /** The messages about the name (Save asks for a name first). */
  name: number;
  total: number;
}

export function shownProblems(problems: {
  form: readonly PersonaProblem[];
  file: readonly PersonaProblem[];
  edited: ReadonlySet<string>;
  t: Translate;
}): ShownProblems {
  const merged = problems.form.concat(problems.file.filter((problem) => !problems.edited.has(fieldOfProblem(problem))));
  const byField = new Map<FormField, string[]>();
  const general: string[] = [];
  let name = 0;
  for (const problem of merged) {
    const key = fieldOfProblem(problem);
    const text = problemText(problem, problems.t, key !== 'general');
    const list = key === 'general' ? general : (byField.get(key) ?? byField.set(key, []).get(key)!);
    if (list.indexOf(text) >= 0) continue;
    list.push(text);
    if (key === 'name') name++;
  }
  let total = general.length;
  for (const list of byField.values()) total += list.length;
  return { byField, general, name, total };
}

/** Save is refused for a file shown read-only and while any message is shown, the name's first. */
export function saveCheckOf(readOnly: boolean, shown: Pick<ShownProblems, 'name' | 'total'>): SaveCheck {
  if (readOnly) return { ok: false, reason: 'broken', count: 1 };
  if (shown.name > 0) return { ok: false, reason: 'name', count: shown.total };
  if (shown.total > 0) return { ok: false, reason: 'problems', count: shown.total };
  return { ok: true };
}
