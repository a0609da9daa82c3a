/**
 * The core methods (reference §3.2): `initialize` (protocol "1.0"; another major version is
 * −32602), `ping`, `model/availability`, `schema/validate` and `tools/validate`.
 */
import type { LanguageModel, ModelAvailability } from '../contract/language-model';
import { JsonSchema } from '../core/schema';
import { invalidParams } from './errors';
import { ParamReader } from './params';
import { describeWireTool, readWireTools } from './tool-definitions';

export const PROTOCOL_VERSION = '1.0';
export const SERVER_NAME = 'oam-cocos';
export const NOTIFICATIONS = ['session/event', 'npc/event', 'world/changed', 'tool/cancel'];

/** The seed's unavailable reasons; this project's others (unreachable, no_prompt_api, …) read as unknown, named in detail. */
const WIRE_REASONS = [
  'device_not_eligible',
  'model_not_ready',
  'aicore_unavailable',
  'needs_system_update',
  'not_enough_disk_space',
  'unknown',
];

export interface CoreMethodSettings {
  serverVersion: string;
  maxSessions: number;
  methods: () => string[];
  systemModel?: LanguageModel;
  modelAvailability?: () => Promise<ModelAvailability>;
}

export async function availabilityOnWire(settings: CoreMethodSettings): Promise<Record<string, unknown>> {
  const model = settings.systemModel;
  const read = settings.modelAvailability ?? (model ? () => model.availability() : undefined);
  const availability: ModelAvailability = read
    ? await read()
    : { status: 'unavailable', reason: 'unknown', detail: 'The host gave the bridge no system model.' };
  const wire: Record<string, unknown> = { available: availability.status === 'available' };
  if (availability.status === 'unavailable') {
    const known = WIRE_REASONS.indexOf(availability.reason) >= 0;
    wire.reason = known ? availability.reason : 'unknown';
    const detail = availability.detail ?? (known ? undefined : availability.reason);
    if (detail !== undefined) wire.detail = detail;
  } else if (availability.status !== 'available') {
    wire.reason = 'model_not_ready';
  }
  wire.contextSize = model ? model.capabilities.maxInputTokens : 0;
  if (model) wire.variant = model.capabilities.modelName;
  wire.supportedLanguages = [];
  wire.status = availability.status;
  if (model) wire.maxOutputTokens = model.capabilities.maxOutputTokens;
  if (availability.status === 'downloading') {
    if (availability.bytesDownloaded !== undefined) wire.bytesDownloaded = availability.bytesDownloaded;
    if (availability.totalBytes !== undefined) wire.totalBytes = availability.totalBytes;
  }
  return wire;
}

export function coreMethods(settings: CoreMethodSettings) {
  return {
    initialize: async (raw: unknown) => {
      const params = new ParamReader(raw);
      const version = params.string('protocolVersion');
      params.object('client');
      if (version !== undefined && version.split('.')[0] !== PROTOCOL_VERSION.split('.')[0]) {
        throw invalidParams(`Protocol version ${version} is not supported; this bridge speaks ${PROTOCOL_VERSION}.`, {
          supported: [PROTOCOL_VERSION],
        });
      }
      const model = await availabilityOnWire(settings);
      return {
        protocolVersion: PROTOCOL_VERSION,
        server: { name: SERVER_NAME, version: settings.serverVersion },
        capabilities: {
          methods: settings.methods(),
          notifications: NOTIFICATIONS,
          clientRequests: ['tool/call'],
          streaming: true,
          clientTools: true,
          structuredOutput: true,
          models: ['system', 'scripted'],
          maxSessions: settings.maxSessions,
          batch: false,
        },
        model,
      };
    },
    ping: () => ({}),
    'model/availability': () => availabilityOnWire(settings),
    'schema/validate': (raw: unknown) => {
      const params = new ParamReader(raw);
      const schemaRaw = params.any('schema');
      if (schemaRaw === undefined) throw invalidParams('params.schema is required.');
      params.string('name');
      const schema = JsonSchema.from(schemaRaw);
      return { warnings: schema.warnings, generationSchema: schema.json, rendered: schema.render() };
    },
    'tools/validate': (raw: unknown) => {
      const params = new ParamReader(raw);
      if (params.array('tools') === undefined)
        throw invalidParams('params.tools is required (a list of tool definitions).');
      const { tools, warnings } = readWireTools(params.any('tools'));
      // Each tool's own warnings are in its entry; the list keeps those about the whole set.
      const listWarnings = warnings.filter((warning) => !tools.some((tool) => tool.warnings.indexOf(warning) >= 0));
      return { tools: tools.map(describeWireTool), warnings: listWarnings };
    },
  };
}
