/**
 * Emits a node event for a component without letting a listener's exception escape: a UI
 * handler that throws must not break the NPC turn, decision or download that emitted it. The
 * caller learns what was thrown (the engine stops at the first listener that throws), so an
 * external tool whose listener threw can be failed at once instead of waiting its timeout.
 */
import type { Node } from 'cc';

export interface EmitResult {
  /** False when the node was gone and nothing was emitted. */
  emitted: boolean;
  /** A listener threw (the listeners after it did not run). */
  threw: boolean;
  error?: unknown;
}

/** Emits `type` on `node` when the node is still alive. */
export function emitSafely(node: Node | null | undefined, type: string, payload: unknown): EmitResult {
  if (!node || !node.isValid) return { emitted: false, threw: false };
  try {
    node.emit(type, payload);
  } catch (error) {
    console.error(`[oam] a "${type}" listener on "${node.name}" threw`, error);
    return { emitted: true, threw: true, error };
  }
  return { emitted: true, threw: false };
}
