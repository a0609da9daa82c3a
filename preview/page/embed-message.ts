/**
 * What the editor panel (or any host page) may send to the preview: `window.postMessage` with
 * `{ type: 'oam-preview:setup', persona?, openaiUrl?, openaiModel?, modelKind?, extraTools?, npcOptions?, initialWorld? }`.
 * With npcOptions the page runs that NPC as the game does (its options, its world, its tools)
 * instead of the sample tavern.
 * The page also reads `?openaiUrl=…&openaiModel=…` from its address, when it is a file page (the editor panel).
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

/** Who sent a message, and where the page itself is. */
export interface MessageSender {
  /** `event.origin`. */
  origin: string;
  /** `event.source === window.parent && window.parent !== window`: the page that embeds this one. */
  fromParent: boolean;
  /** `location.origin` and `location.protocol` of this page. */
  ownOrigin: string;
  ownProtocol: string;
}

/**
 * Set-up messages are taken only from the page that embeds the preview, and only when that
 * page is the preview's own origin, or the editor panel when the preview is a file (Creator's
 * panel loads dist/preview/index.html from disk; a file page posts with origin "file://" or
 * "null", and no website can frame a file). A page on another origin (that framed it, or
 * opened it in a window) could otherwise point the preview at its own server and read what
 * the designer types next.
 */
export function isTrustedSender(sender: MessageSender): boolean {
  if (!sender.fromParent) return false;
  if (sender.ownProtocol === 'file:') return sender.origin === 'file://' || sender.origin === 'null';
  return sender.origin === sender.ownOrigin;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message's settings, or null when it is not a preview set-up message; bad fields are dropped. */
export function readEmbedMessage(data: unknown): EmbedMessage | null {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== EMBED_MESSAGE_TYPE)
    return null;
  const record = data as Record<string, unknown>;
  const out: EmbedMessage = {};
  if (record.persona !== undefined && record.persona !== null) out.persona = record.persona;
  if (typeof record.openaiUrl === 'string') out.openaiUrl = record.openaiUrl;
  if (typeof record.openaiModel === 'string') out.openaiModel = record.openaiModel;
  if (record.modelKind === 'standin' || record.modelKind === 'script' || record.modelKind === 'openai')
    out.modelKind = record.modelKind;
  if (Array.isArray(record.extraTools)) {
    out.extraTools = record.extraTools.filter(
      (tool): tool is ExtraToolDeclaration =>
        typeof tool === 'object' &&
        tool !== null &&
        typeof tool.name === 'string' &&
        typeof tool.description === 'string' &&
        (tool.parameters === undefined || (typeof tool.parameters === 'object' && tool.parameters !== null)),
    );
  }
  if (isPlainObject(record.npcOptions)) out.npcOptions = record.npcOptions;
  if (isPlainObject(record.initialWorld)) out.initialWorld = record.initialWorld;
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
