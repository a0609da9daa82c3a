/**
 * The build-plugin entry (package.json `contributions.builder` → dist/builder/index.js).
 * Two keys, because hooks keyed 'android' do not run for the separate 'google-play' platform.
 */
import { ENABLE_OPTION } from './hooks';

/** The fields of Creator's IBuildPluginConfig this plugin uses. */
export interface BuildPluginConfig {
  hooks: string;
  options: Record<
    string,
    {
      label: string;
      description: string;
      default: unknown;
      render: { ui: string; attributes?: Record<string, string | boolean | number> };
    }
  >;
}

function androidConfig(): BuildPluginConfig {
  return {
    hooks: './hooks',
    options: {
      [ENABLE_OPTION]: {
        label: 'i18n:oam-cocos.builder.enableNano.label',
        description: 'i18n:oam-cocos.builder.enableNano.description',
        default: true,
        render: { ui: 'ui-checkbox' },
      },
    },
  };
}

export const configs: Record<'android' | 'google-play', BuildPluginConfig> = {
  android: androidConfig(),
  'google-play': androidConfig(),
};
