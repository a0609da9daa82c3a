/**
 * What every oam-cocos JSON asset handler does on import (personas, NPC profiles, line banks):
 * read the file, check it with the asset's own reader, store the outcome in the meta for the
 * inspector, and log it once. The asset's reader decides how bad a problem is:
 * - `fatal` (not a JSON object): the import fails; there is nothing a JsonAsset could hold.
 * - `error`: imported so the designer can fix it, logged as an error; an NPC given it refuses
 *   it at run time with the same message.
 * - `warning`: imported and usable, logged as a warning.
 * `userData.problems` ([{field, message}]) and `userData.status` ('ok' | 'warning' | 'error')
 * are what the inspector shows.
 */
import { readFile } from 'fs';
import { basename } from 'path';
import { fillIn } from '../persona/i18n';
import type { Translate } from '../persona/i18n';

/** The parts of Creator's asset object the hook uses. */
export interface ImportedAsset {
  source: string;
  userData: Record<string, unknown>;
}

export interface AssetCheckDeps {
  readText: (path: string) => Promise<string>;
  log: { warn: (message: string) => void; error: (message: string) => void };
  t: Translate;
}

export interface AssetReport {
  status: 'ok' | 'warning' | 'error';
  fatal: boolean;
  problems: Array<{ field: string; message: string }>;
  summary: string;
}

/** How one kind of asset is checked, and the i18n keys of its three console messages. */
export interface AssetKind {
  read: (text: string) => AssetReport;
  messages: { fatal: string; error: string; warning: string };
}

declare const Editor: { I18n: { t(key: string, vars?: Record<string, string>): string } } | undefined;

/** English text of every message key, for a host without Editor.I18n (tests, the command line). */
export const ENGLISH_MESSAGES: Record<string, string> = {
  'persona.import.notJson': 'oam-cocos: {file} is not a persona: {reason}',
  'persona.import.noName': 'oam-cocos: {file} cannot be used by an NPC yet: {problems}',
  'persona.import.problems': 'oam-cocos: {file} has persona problems: {problems}',
  'profile.import.notJson': 'oam-cocos: {file} is not an NPC profile: {reason}',
  'profile.import.problems': 'oam-cocos: {file} cannot be used by an NPC yet: {problems}',
  'bank.import.notJson': 'oam-cocos: {file} is not a line bank: {reason}',
  'bank.import.problems': 'oam-cocos: {file} cannot be used by an NPC yet: {problems}',
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
  if (!text || text === full || text === key) text = ENGLISH_MESSAGES[key] ?? key;
  return fillIn(text, vars);
}

export function defaultAssetDeps(): AssetCheckDeps {
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
export async function checkJsonAsset(asset: ImportedAsset, kind: AssetKind, deps: AssetCheckDeps): Promise<boolean> {
  const file = basename(asset.source);
  let report: AssetReport;
  try {
    report = kind.read(await deps.readText(asset.source));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    asset.userData.status = 'error';
    asset.userData.problems = [{ field: 'file', message: reason }];
    deps.log.error(deps.t(kind.messages.fatal, { file, reason }));
    return false;
  }
  asset.userData.status = report.status;
  asset.userData.problems = report.problems.map((problem) => ({ field: problem.field, message: problem.message }));
  if (report.fatal) {
    deps.log.error(deps.t(kind.messages.fatal, { file, reason: report.summary }));
    return false;
  }
  const problems = report.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  if (report.status === 'error') deps.log.error(deps.t(kind.messages.error, { file, problems }));
  else if (report.status === 'warning') deps.log.warn(deps.t(kind.messages.warning, { file, problems }));
  return true;
}

/** The text as a JSON object, or undefined (not JSON, or JSON that is not an object). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const source = typeof text === 'string' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    const value: unknown = JSON.parse(source);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
