/**
 * The normalizations the seed applies before it compares two bridges' exchanges
 * (open-android-models, oam-bridge/src/test/.../AppleConformanceTest.kt: `normalize`, `collapse`),
 * plus a lighter one for the ported unit tests, which assert on more members than the
 * differential test does but still not on ids, clocks or versions.
 */

/** A JSON value as the vectors and the engine's output hold it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** What one request produced: its response and the messages sent before it, by kind. */
export interface ExchangeRecord {
  response: Json;
  events: Json[];
  toolCalls: Json[];
  cancels: Json[];
  changes: Json[];
}

/**
 * Members whose values differ by design between platforms (the seed's DROPPED): server
 * identity, availability, usage counts, step lists, transcripts, generation schemas.
 */
export const DROPPED = [
  'server',
  'model',
  'steps',
  'transcript',
  'generationSchema',
  'rendered',
  'usage',
  'supportedLanguages',
];

/** Members whose presence is compared but not their value (the seed's MASKED). */
export const MASKED = ['durationSeconds', 'createdAt', 'retryAfter', 'schemaPath'];

/** The light mode masks only clocks, durations and the library version. */
const LIGHT_MASKED = ['durationSeconds', 'createdAt', 'retryAfter', 'version'];

export type NormalizeMode = 'conformance' | 'light';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A generated call id (`call_…` on Android, ours too) reads `<call>`. */
const isCallId = (value: Json): boolean => typeof value === 'string' && /^call_/.test(value);

function conformanceValue(value: Json, key?: string): Json {
  if (Array.isArray(value)) return value.map((item) => conformanceValue(item, key));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [member, element] of Object.entries(value)) {
      if (DROPPED.indexOf(member) >= 0) continue;
      if (MASKED.indexOf(member) >= 0) out[member] = `<${member}>`;
      else if (member === 'warnings') out[member] = Array.isArray(element) ? element.length : -1;
      else if (member === 'message' && key === 'error') out[member] = '<message>';
      else out[member] = conformanceValue(element, member);
    }
    return out;
  }
  return isCallId(value) ? '<call>' : value;
}

function lightValue(value: Json, key?: string): Json {
  if (Array.isArray(value)) return value.map((item) => lightValue(item, key));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [member, element] of Object.entries(value)) {
      // `version` is masked only where it is the library's (server.version); world versions stay.
      const masked = LIGHT_MASKED.indexOf(member) >= 0 && (member !== 'version' || key === 'server');
      out[member] = masked ? `<${member}>` : lightValue(element, member);
    }
    return out;
  }
  return isCallId(value) ? '<call>' : value;
}

export function normalize(value: Json, mode: NormalizeMode): Json {
  return mode === 'conformance' ? conformanceValue(value) : lightValue(value);
}

/**
 * The seed's `collapse`: drops `modelStep` and `partial` events, merges consecutive text
 * deltas into one event with the final text and line deltas/resets into one `line` event
 * (how text is chunked is not part of the protocol).
 */
export function collapse(events: Json[]): Json[] {
  const result: JsonObject[] = [];
  for (const params of events) {
    if (!isObject(params) || !isObject(params.event)) continue;
    const event = params.event;
    const type = event.type;
    if (type === 'modelStep' || type === 'partial') continue;
    const context: JsonObject = {};
    for (const [member, element] of Object.entries(params)) if (member !== 'event') context[member] = element;
    let merged: JsonObject = event;
    if (type === 'text') merged = { type: 'text', text: event.text };
    else if (type === 'lineDelta' || type === 'lineReset') merged = { type: 'line' };
    const entry: JsonObject = { ...context, event: merged };
    const last = result[result.length - 1];
    const lastType = last && isObject(last.event) ? last.event.type : undefined;
    const mergeable = type === 'text' || type === 'lineDelta' || type === 'lineReset';
    if (mergeable && lastType === merged.type) result[result.length - 1] = entry;
    else result.push(entry);
  }
  return result;
}

/** Normalizes a whole record; in conformance mode the events are collapsed first, as the seed does. */
export function normalizeRecord(record: ExchangeRecord, mode: NormalizeMode): ExchangeRecord {
  const events = mode === 'conformance' ? collapse(record.events.map((item) => normalize(item, mode))) : record.events;
  return {
    response: normalize(record.response, mode),
    events: mode === 'conformance' ? events : events.map((item) => normalize(item, mode)),
    toolCalls: record.toolCalls.map((item) => normalize(item, mode)),
    cancels: record.cancels.map((item) => normalize(item, mode)),
    changes: record.changes.map((item) => normalize(item, mode)),
  };
}
