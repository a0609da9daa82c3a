/**
 * What the editor panel (or any host page) may send to the preview: `window.postMessage` with
 * `{ type: 'oam-preview:setup', persona?, openaiUrl?, openaiModel?, modelKind?, extraTools?, npcOptions?, initialWorld? }`.
 * With npcOptions the page runs that NPC as the game does (its options, its world, its tools)
 * instead of the sample tavern.
 * The page also reads `?openaiUrl=…&openaiModel=…` from its address.
 */
import type { ExtraToolDeclaration } from './preview-session';

export const EMBED_MESSAGE_TYPE = 'oam-preview:setup';

export interface EmbedMessage {
  /** Persona JSON text or object; validated like a pasted one. */
  persona?: unknown;
  openaiUrl?: string;
  openaiModel?: string;
  modelKind?: 'standin' | 'script' | 'openai';
  extraTools?: ExtraToolDeclaration[];
  /** The NPCComponent's options (NPCOptions form); checked by the NPC when the session starts. */
  npcOptions?: Record<string, unknown>;
  /** The initial state of the NPC's WorldStateStore (a JSON object). */
  initialWorld?: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message's settings, or null when it is not a preview set-up message; bad fields are dropped. */
export function readEmbedMessage(data: unknown): EmbedMessage | null {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== EMBED_MESSAGE_TYPE)
    return null;
  const d = data as Record<string, unknown>;
  const out: EmbedMessage = {};
  if (d.persona !== undefined && d.persona !== null) out.persona = d.persona;
  if (typeof d.openaiUrl === 'string') out.openaiUrl = d.openaiUrl;
  if (typeof d.openaiModel === 'string') out.openaiModel = d.openaiModel;
  if (d.modelKind === 'standin' || d.modelKind === 'script' || d.modelKind === 'openai') out.modelKind = d.modelKind;
  if (Array.isArray(d.extraTools)) {
    out.extraTools = d.extraTools.filter(
      (t): t is ExtraToolDeclaration =>
        typeof t === 'object' &&
        t !== null &&
        typeof t.name === 'string' &&
        typeof t.description === 'string' &&
        (t.parameters === undefined || (typeof t.parameters === 'object' && t.parameters !== null)),
    );
  }
  if (isPlainObject(d.npcOptions)) out.npcOptions = d.npcOptions;
  if (isPlainObject(d.initialWorld)) out.initialWorld = d.initialWorld;
  return out;
}

export function readQuerySettings(search: string): { openaiUrl?: string; openaiModel?: string } {
  const out: { openaiUrl?: string; openaiModel?: string } = {};
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1).replace(/\+/g, ' '));
    if (key === 'openaiUrl' || key === 'openaiModel') out[key] = value;
  }
  return out;
}

/** A malformed escape (`%E0%A4%A`) keeps the raw text rather than throwing. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
