/**
 * Whether emitting `type` on `node` now would reach a listener. The engine's
 * `node.hasEventListener(type)` also counts a listener whose target (the component or node
 * passed as `node.on(type, fn, target)`) has been destroyed, and its emit then skips it
 * silently: a shop UI of the previous scene that registered on a persist-root NPC would make an
 * external tool wait its whole timeout for nobody. This reads the engine v3.8 callback list
 * (`eventProcessor.bubblingTarget`, the one `node.emit` calls) and asks each entry the
 * engine's own validity check (a capture-phase listener, which emit never reaches, does not
 * count); an engine whose list looks different falls back to `hasEventListener`.
 */
import type { Node } from 'cc';

interface CallbackInfoLike {
  check?: () => boolean;
}

interface CallbackListLike {
  callbackInfos?: Array<CallbackInfoLike | null>;
}

interface NodeInternals {
  eventProcessor?: { bubblingTarget?: { _callbackTable?: Record<string, CallbackListLike | undefined> } | null };
}

export function hasLiveListener(node: Node | null | undefined, type: string): boolean {
  if (!node || !node.isValid || !node.hasEventListener(type)) return false;
  const processor = (node as unknown as NodeInternals).eventProcessor;
  if (!processor || !('bubblingTarget' in processor)) return true;
  // hasEventListener also counts capture-phase listeners, which node.emit never calls.
  const table = processor.bubblingTarget ? processor.bubblingTarget._callbackTable : undefined;
  if (processor.bubblingTarget === null) return false;
  if (!table || typeof table !== 'object') return true;
  const infos = table[type]?.callbackInfos;
  if (!infos) return false;
  if (!Array.isArray(infos)) return true;
  return infos.some((info) => !!info && (typeof info.check !== 'function' || info.check()));
}
