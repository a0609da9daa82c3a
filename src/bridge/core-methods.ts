/**
 * The core methods (reference §3.2): `initialize` (protocol "1.0"; another major version is
 * −32602), `ping`, `model/availability`, `schema/validate` and `tools/validate`.
 */
import type { LanguageModel, ModelAvailability } from '../contract/language-model';
import { JsonSchema } from '../core/schema';
import { closedWireSchema } from './closed-schemas';
import { atSchemaParam, invalidParams } from './errors';
import { ParamReader } from './params';
import { describeWireTool, readWireTools } from './tool-definitions';

export const PROTOCOL_VERSION = '1.0';
export const SERVER_NAME = 'oam-cocos';
/** In the seed's order (its ProtocolTest pins the list as it is). */
export const NOTIFICATIONS = ['session/event', 'tool/cancel', 'npc/event', 'world/changed'];

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
  /** false: `capabilities.models` is only "system" (the engine passes its allowsScriptedModels). */
  allowsScriptedModels?: boolean;
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
          models: settings.allowsScriptedModels === false ? ['system'] : ['system', 'scripted'],
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
      const schema = atSchemaParam('schema', () => JsonSchema.from(closedWireSchema(schemaRaw)));
      return { warnings: schema.warnings, generationSchema: schema.json, rendered: schema.render() };
    },
    'tools/validate': (raw: unknown) => {
      const params = new ParamReader(raw);
      if (params.array('tools') === undefined)
        throw invalidParams('params.tools is required (a list of tool definitions).');
      const { tools, warnings } = readWireTools(params.any('tools'));
      // Each tool's schema warnings are in its entry; the list keeps the others (descriptions, the whole set).
      const inEntries = new Set(
        tools.flatMap((tool) => tool.parameters.warnings.map((text) => `${tool.name}: ${text}`)),
      );
      const listWarnings = warnings.filter((warning) => !inEntries.has(warning));
      return { tools: tools.map(describeWireTool), warnings: listWarnings };
    },
  };
}
