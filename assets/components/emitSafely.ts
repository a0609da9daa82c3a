/**
 * Emits a node event for a component without letting a listener's exception escape: a UI
 * handler that throws must not break the NPC turn, decision or download that emitted it.
 */
import type { Node } from 'cc';

/** Emits `type` on `node` when the node is still alive; returns false when nothing was emitted. */
export function emitSafely(node: Node | null | undefined, type: string, payload: unknown): boolean {
  if (!node || !node.isValid) return false;
  try {
    node.emit(type, payload);
  } catch (error) {
    console.error(`[oam] a "${type}" listener on "${node.name}" threw`, error);
  }
  return true;
}
