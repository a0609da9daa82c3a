/**
 * The `.persona` asset handler. It extends Creator's built-in `json` handler, so a persona
 * imports as a `cc.JsonAsset` that NPCComponent reads like any JSON asset; before the json
 * importer runs, the text is checked against the persona schema.
 *
 * Import result (the hook's boolean):
 * - not JSON (or not a JSON object): false. The import fails with the parse error and its
 *   line/column in the console; there is nothing a JsonAsset could hold.
 * - JSON without a usable name: true, logged as an error, problems stored in the meta. The
 *   asset stays selectable so the designer can fix it in the inspector; an NPC given it
 *   refuses it at run time with the same message.
 * - JSON with other problems: true, logged as a warning, problems stored in the meta.
 * `userData.problems` ([{field, message}]) and `userData.status` ('ok' | 'warning' | 'error')
 * are what the inspector shows.
 */
import { readFile } from 'fs';
import { basename } from 'path';
import { readPersonaFile, personaTemplateText } from '../persona/persona-file';
import type { PersonaFileReport } from '../persona/persona-file';
import { fillIn } from '../persona/i18n';
import type { Translate } from '../persona/i18n';

/** The parts of Creator's asset object the hook uses. */
export interface ImportedAsset {
  source: string;
  userData: Record<string, unknown>;
}

export interface PersonaHandlerDeps {
  readText: (path: string) => Promise<string>;
  log: { warn: (message: string) => void; error: (message: string) => void };
  t: Translate;
}

declare const Editor: { I18n: { t(key: string, vars?: Record<string, string>): string } } | undefined;

const ENGLISH_FALLBACK: Record<string, string> = {
  'persona.import.notJson': 'oam-cocos: {file} is not a persona: {reason}',
  'persona.import.noName': 'oam-cocos: {file} cannot be used by an NPC yet: {problems}',
  'persona.import.problems': 'oam-cocos: {file} has persona problems: {problems}',
};

function editorTranslate(key: string, vars?: Record<string, string | number>): string {
  const full = `oam-cocos.${key}`;
  let text: string | undefined;
  try {
    text = typeof Editor !== 'undefined' ? Editor.I18n.t(full) : undefined;
  } catch {
    text = undefined;
  }
  // The editor gives the key back when it has no text for it.
  if (!text || text === full || text === key) text = ENGLISH_FALLBACK[key] ?? key;
  return fillIn(text, vars);
}

function defaultDeps(): PersonaHandlerDeps {
  return {
    readText: (path) =>
      new Promise((resolve, reject) =>
        readFile(path, 'utf8', (failure, text) => (failure ? reject(failure) : resolve(text))),
      ),
    log: { warn: (message) => console.warn(message), error: (message) => console.error(message) },
    t: editorTranslate,
  };
}

/** Checks the file, records the outcome in the meta and logs it; true lets the json importer go on. */
export async function checkPersonaAsset(asset: ImportedAsset, deps: PersonaHandlerDeps): Promise<boolean> {
  const file = basename(asset.source);
  let report: PersonaFileReport;
  try {
    report = readPersonaFile(await deps.readText(asset.source));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    asset.userData.status = 'error';
    asset.userData.problems = [{ field: 'persona', message: reason }];
    deps.log.error(deps.t('persona.import.notJson', { file, reason }));
    return false;
  }
  asset.userData.status = report.status;
  asset.userData.problems = report.problems.map((problem) => ({ field: problem.field, message: problem.message }));
  if (report.fatal) {
    deps.log.error(deps.t('persona.import.notJson', { file, reason: report.summary }));
    return false;
  }
  const problems = report.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  if (report.status === 'error') deps.log.error(deps.t('persona.import.noName', { file, problems }));
  else if (report.status === 'warning') deps.log.warn(deps.t('persona.import.problems', { file, problems }));
  return true;
}

export function createPersonaHandler(overrides: Partial<PersonaHandlerDeps> = {}) {
  const deps = { ...defaultDeps(), ...overrides };
  return {
    name: 'oam-persona',
    extends: 'json',
    displayName: 'i18n:oam-cocos.persona.asset.name',
    description: 'i18n:oam-cocos.persona.asset.description',
    assetType: 'cc.JsonAsset',
    createInfo: {
      generateMenuInfo() {
        return [
          {
            label: 'i18n:oam-cocos.persona.create.label',
            fullFileName: 'npc.persona',
            content: personaTemplateText(),
          },
        ];
      },
    },
    importer: {
      before: (asset: ImportedAsset) => checkPersonaAsset(asset, deps),
    },
  };
}
