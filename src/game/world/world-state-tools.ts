/**
 * `read_world_state` and `update_world_state`: how a model looks at and changes the world
 * state. Reads and writes are limited to allowlisted path prefixes, matched exactly after a key
 * is given its stored spelling (only the case differing); every refusal says what is allowed, so a small model can correct itself next step.
 */
import { AgentError } from '../../contract/errors';
import { AgentTool, ToolOutput } from '../../core/tools';
import { fitToStored } from './value-fitting';
import { jsonEquals, JsonObject, JsonValue } from './json-value';
import { setOwnKey } from '../../core/json';
import { shortenForOutput } from './output-shortening';
import { WorldPath } from './world-path';
import { clip } from './world-summary';
import type { WorldState } from './world-state';

export const READ_WORLD_STATE_TOOL = 'read_world_state';
export const UPDATE_WORLD_STATE_TOOL = 'update_world_state';

export interface WorldStateToolOptions {
  /** Path prefixes the model may read. Default `[""]` (everything); `[]` gives no read tool. */
  readable?: readonly string[];
  /** Path prefixes the model may change. Default `[]` (no update tool). */
  writable?: readonly string[];
  /** Reads longer than this many characters are shortened (default 1500, at least 100). */
  maxOutputChars?: number;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 1500;
export const MIN_MAX_OUTPUT_CHARS = 100;
const MAX_KEYS_IN_DESCRIPTION = 12;
const MAX_KEYS_IN_ERROR = 20;
const MAX_VALUE_IN_MESSAGE = 200;

export function worldStateTools(world: WorldState, options: WorldStateToolOptions = {}): AgentTool[] {
  const readable = parsePrefixes(options.readable ?? [''], 'readable');
  const writable = parsePrefixes(options.writable ?? [], 'writable');
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  if (typeof maxChars !== 'number' || !Number.isInteger(maxChars) || maxChars < MIN_MAX_OUTPUT_CHARS) {
    throw new AgentError(
      'invalid_request',
      `World state tools: maxOutputChars must be a whole number ≥ ${MIN_MAX_OUTPUT_CHARS} (got ${String(maxChars)}).`,
    );
  }
  const tools: AgentTool[] = [];
  if (readable.length > 0) tools.push(readTool(world, readable, maxChars));
  if (writable.length > 0) tools.push(updateTool(world, writable));
  return tools;
}

function readTool(world: WorldState, readable: WorldPath[], maxChars: number): AgentTool {
  const everything = readable.some((readablePath) => readablePath.isRoot);
  let where: string;
  if (everything) {
    const keys = world.keys() ?? [];
    where = keys.length === 0 ? 'empty right now' : `keys: ${listWithMore(keys, MAX_KEYS_IN_DESCRIPTION)}`;
  } else {
    where = `readable: ${listPaths(readable)}`;
  }
  // Listed in every turn's prompt: 24 Gemma tokens for the sample's world, where the longer
  // wording with an example path and the "" for all hint cost 36.
  const description = `Game values by dot path; ${where}.`;
  return AgentTool.local(
    {
      name: READ_WORLD_STATE_TOOL,
      description,
      parameters: {
        type: 'object',
        // The tool's description gives the path's form; a note here would say it twice in every prompt.
        properties: { path: { type: 'string' } },
        required: ['path'],
      },
      // Everything readable, by path: a decision puts it in its prompt when it is small.
      snapshot: () => {
        if (everything) return world.get('');
        const out: Record<string, unknown> = {};
        for (const readablePath of readable) setOwnKey(out, readablePath.toString(), world.get(readablePath));
        return out;
      },
    },
    (args: Record<string, unknown>) => {
      const parsed = parseArgPath(args.path, true);
      if (!(parsed instanceof WorldPath)) return parsed;
      const path = resolveSpelling(world, parsed);
      const shown = path.toString();
      if (readable.some((readablePath) => readablePath.isPrefixOf(path))) {
        const value = world.get(path);
        if (value === undefined) return ToolOutput.error(missingMessage(world, path, readable));
        return ToolOutput.json(shortenForOutput(value, path, maxChars));
      }
      const below = readable.filter((readablePath) => path.isPrefixOf(readablePath));
      if (below.length > 0) return ToolOutput.json(shortenForOutput(readableParts(world, path, below), path, maxChars));
      return ToolOutput.error(`"${shown}" is not readable. Readable paths: ${listPaths(readable)}.`);
    },
  );
}

function updateTool(world: WorldState, writable: WorldPath[]): AgentTool {
  const description = `Change a value in the game's world state. Writable paths: ${listPaths(writable)}. The new value keeps the type already stored (a number stays a number).`;
  return AgentTool.local(
    {
      name: UPDATE_WORLD_STATE_TOOL,
      description,
      sideEffect: true,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: `Dot path inside a writable path, e.g. ${exampleUnder(writable[0])}.` },
          // No type on purpose: a small model's "45" must reach the type fitting, not be rejected first.
          value: { description: 'The new value: text, a number, true/false, or JSON for a list or an object.' },
        },
        required: ['path', 'value'],
      },
    },
    (args: Record<string, unknown>) => {
      const parsed = parseArgPath(args.path, false);
      if (!(parsed instanceof WorldPath)) return parsed;
      // The stored spelling first (`Player.Gold` → `player.gold` when only the case differs),
      // then the allowlist, exactly: writable `player.gold` never lets the model write `Player.gold`.
      const path = resolveSpelling(world, parsed);
      const shown = path.toString();
      const prefix = writable.find((writablePath) => writablePath.isPrefixOf(path));
      if (!prefix) {
        return ToolOutput.error(`"${shown}" is read-only. Writable paths: ${listPaths(writable)}.`);
      }
      if (!('value' in args) || args.value === undefined) {
        return ToolOutput.error(`value is required: the new value for ${shown || 'the whole state'}.`);
      }
      const old = world.get(path);
      const fitted = fitToStored(old, args.value, shown || 'The whole state');
      if (!fitted.ok) return ToolOutput.error(fitted.message);
      try {
        world.set(path, fitted.value);
      } catch (error) {
        return ToolOutput.error(AgentError.from(error, 'invalid_request').message);
      }
      const now = world.get(path);
      if (old !== undefined && jsonEquals(old, now)) return `${shown} is already ${formatValue(now)}; nothing changed.`;
      return `Set ${shown} to ${formatValue(now)} (was ${old === undefined ? 'not set' : formatValue(old)}).`;
    },
  );
}

function parsePrefixes(paths: readonly string[], name: string): WorldPath[] {
  if (!Array.isArray(paths))
    throw new AgentError('invalid_request', `World state tools: ${name} must be a list of paths.`);
  const parsed = paths.map((text) => WorldPath.parse(text));
  // A prefix inside another adds nothing and would be listed twice.
  return parsed.filter(
    (path, index) =>
      !parsed.some(
        (other, otherIndex) =>
          otherIndex !== index && other.isPrefixOf(path, true) && (!other.equals(path, true) || otherIndex < index),
      ),
  );
}

/** A path argument as the model sent it, or an error output. Reads default to the root. */
function parseArgPath(raw: unknown, emptyIsRoot: boolean): WorldPath | ToolOutput {
  if (raw === undefined || raw === null) {
    if (emptyIsRoot) return WorldPath.root;
    return ToolOutput.error('path is required, e.g. "player.gold".');
  }
  if (typeof raw !== 'string' && typeof raw !== 'number')
    return ToolOutput.error('path must be text, e.g. "player.gold".');
  try {
    return WorldPath.parse(String(raw));
  } catch (error) {
    return ToolOutput.error(AgentError.from(error, 'invalid_request').message);
  }
}

/**
 * Maps each key to its stored spelling when only the case differs (`Player.Gold` →
 * `player.gold`) and exactly one stored key matches; keys not stored keep the model's spelling.
 */
function resolveSpelling(world: WorldState, path: WorldPath): WorldPath {
  const out: (string | number)[] = [];
  for (const segment of path.segments) {
    const keys = typeof segment === 'string' ? world.keys(WorldPath.of(out)) : undefined;
    if (typeof segment === 'string' && keys && keys.indexOf(segment) < 0) {
      const lower = segment.toLowerCase();
      const matches = keys.filter((key) => key.toLowerCase() === lower);
      if (matches.length === 1) {
        out.push(matches[0]);
        continue;
      }
    }
    out.push(segment);
  }
  return WorldPath.of(out);
}

/** For a read above the allowlist: an object holding only the readable values under `path`. */
function readableParts(world: WorldState, path: WorldPath, below: WorldPath[]): JsonObject {
  const out: JsonObject = {};
  for (const prefix of below) {
    const resolved = resolveSpelling(world, prefix);
    const value = world.get(resolved);
    if (value === undefined) continue;
    let node = out;
    const rest = resolved.segments.slice(path.length).map(String);
    rest.forEach((key, index) => {
      if (index === rest.length - 1) {
        setOwnKey(node, key, value);
        return;
      }
      const next = node[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) setOwnKey(node, key, {});
      node = node[key] as JsonObject;
    });
  }
  return out;
}

/** Why nothing is at `path`: the nearest existing parent's keys, or its size and index range. */
function missingMessage(world: WorldState, path: WorldPath, readable: WorldPath[]): string {
  let depth = path.length - 1;
  while (depth > 0 && !world.has(path.slice(0, depth))) depth--;
  const parent = path.slice(0, depth);
  const head = `No value at "${path.toString()}".`;
  if (depth < path.length - 1) {
    return `${head} Nothing is stored at "${path.slice(0, depth + 1).toString()}" yet.`;
  }
  const name = parent.isRoot ? 'The world state' : `"${parent.toString()}"`;
  const parentValue = world.get(parent);
  if (Array.isArray(parentValue)) {
    const length = parentValue.length;
    return length === 0
      ? `${head} ${name} is an empty list.`
      : `${head} ${name} is a list of ${length} item${length === 1 ? '' : 's'} (indexes 0-${length - 1}).`;
  }
  if (parentValue !== null && typeof parentValue === 'object') {
    if (!readable.some((readablePath) => readablePath.isPrefixOf(parent)))
      return `${head} Readable paths: ${listPaths(readable)}.`;
    const keys = Object.keys(parentValue);
    return keys.length === 0
      ? `${head} ${name} is empty.`
      : `${head} ${name} has keys: ${listWithMore(keys, MAX_KEYS_IN_ERROR)}.`;
  }
  return `${head} ${name} holds ${formatValue(parentValue as JsonValue)}, which has nothing inside.`;
}

function listPaths(paths: WorldPath[]): string {
  return paths.map((path) => (path.isRoot ? '"" (everything)' : path.toString())).join(', ');
}

function listWithMore(items: string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} (and ${items.length - max} more)` : shown;
}

function exampleUnder(prefix: WorldPath): string {
  return prefix.isRoot ? 'quest.stage' : prefix.toString();
}

function formatValue(value: JsonValue | undefined): string {
  return clip(JSON.stringify(value) ?? 'nothing', MAX_VALUE_IN_MESSAGE);
}
