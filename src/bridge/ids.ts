/**
 * One rule for every id a client names (session, NPC, world): 1–128 printable characters,
 * answered −32602 naming the kind otherwise, before the id becomes a key or an echo.
 */
import { checkId } from '../core/sessions';
import { readingParams } from './errors';

export const npcId = (id: string): string => readingParams(() => checkId(id, 'NPC'));
export const worldId = (id: string): string => readingParams(() => checkId(id, 'world'));
