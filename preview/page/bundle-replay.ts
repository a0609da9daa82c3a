/// <reference lib="dom" />
/**
 * A replay bundle in the page: a session a QA overlay recorded on a test phone (or a game's
 * SessionRecorder wrote) played back exactly, its recorded model outputs answering the NPC as
 * it is rebuilt from the bundle (persona, options, memory, world, tools). Each turn shows the
 * line then (on the phone) and now (here), the prompts that differ from the recorded ones are
 * listed, and the bundle can be kept as a persona test with its script of outputs.
 */
import {
  AgentError,
  REPLAY_BUNDLE_FORMAT,
  bundleToPersonaTest,
  parseReplayBundle,
  replayBundle,
  type ReplayBundle,
  type ReplayReport,
} from '../../src';
import { element, clear } from './dom';
import { downloadJson } from './session-files';

/** True when the text is a replay bundle (its format field), whatever else is wrong with it. */
export function isReplayBundleText(text: string): boolean {
  try {
    const value = JSON.parse(text) as { format?: unknown } | null;
    return !!value && typeof value === 'object' && value.format === REPLAY_BUNDLE_FORMAT;
  } catch {
    return false;
  }
}

/** Replays the bundle into `root`; a bad bundle is shown with the path of its problem. */
export async function replayBundleInto(root: HTMLElement, text: string): Promise<ReplayReport | null> {
  clear(root);
  let bundle: ReplayBundle;
  let report: ReplayReport;
  try {
    bundle = parseReplayBundle(text);
    root.append(element('p', { class: 'help' }, 'Replaying…'));
    report = await replayBundle(bundle);
  } catch (error) {
    root.replaceChildren(element('p', { class: 'problems', role: 'alert' }, AgentError.from(error).message));
    return null;
  }
  clear(root);
  renderReport(root, bundle, report);
  return report;
}

function renderReport(root: HTMLElement, bundle: ReplayBundle, report: ReplayReport): void {
  const name = String(bundle.persona.name);
  const where = [bundle.source?.place, bundle.source?.platform, bundle.source?.node && `node "${bundle.source.node}"`]
    .filter(Boolean)
    .join(', ');
  const verdict = report.exact
    ? 'replayed exactly: the same lines, prompts and tool results'
    : report.sameLines
      ? 'the same lines, but not the same prompts or tool results (below)'
      : 'some lines differ (marked)';
  root.append(
    element(
      'p',
      { class: 'help', id: 'bundle-summary' },
      `${report.turns.length} turns of ${name}${where ? ` recorded on ${where}` : ''}: ${verdict}.`,
    ),
  );
  bundle.turns.forEach((recorded, index) => {
    const replayed = report.turns[index];
    const now = replayed ? (replayed.skipped ? '(failed when recorded: not played)' : replayed.line) : '(not played)';
    const differs = !!replayed && !replayed.skipped && !replayed.same;
    root.append(
      element(
        'div',
        { class: 'result-row replay-row bundle-turn' },
        element(
          'div',
          {},
          element('span', { class: 'turn-no' }, `turn ${index + 1} · ${recorded.answeredBy}`),
          ' ',
          element('q', {}, recorded.said),
        ),
        element(
          'div',
          { class: 'side' },
          element(
            'div',
            {},
            element('span', { class: 'label' }, `then · ${recorded.emotion ?? '—'}`),
            recorded.line ?? (recorded.error ? `(failed: ${recorded.error.code})` : ''),
          ),
          element(
            'div',
            { class: differs ? 'changed-answer' : '' },
            element('span', { class: 'label' }, `now · ${replayed?.emotion ?? '—'}`),
            now,
          ),
        ),
      ),
    );
  });
  // The report counts from 0; a designer reads turn 1, step 1.
  const problems = [
    ...report.divergences.map(
      (divergence) =>
        `turn ${divergence.turn + 1}, step ${divergence.step + 1}: the ${divergence.field} differs from the recorded one`,
    ),
    ...report.mismatches.map((mismatch) => `turn ${mismatch.turn + 1}: ${mismatch.what}`),
  ];
  if (problems.length > 0)
    root.append(
      element(
        'ul',
        { class: 'problems', id: 'bundle-divergences' },
        ...problems.map((text) => element('li', {}, text)),
      ),
    );
  const keep = element(
    'button',
    { type: 'button', class: 'small', id: 'bundle-as-test' },
    'Save as persona test and script',
  );
  keep.addEventListener('click', () => {
    const { test, script } = bundleToPersonaTest(bundle);
    const base = name.replace(/[^\w-]+/g, '-').toLowerCase() || 'npc';
    downloadJson(test, `${base}.replay.persona-test.json`);
    downloadJson(script, `${base}.replay.script.json`);
  });
  root.append(element('div', { class: 'row end' }, keep));
}
