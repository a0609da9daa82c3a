import { keysOf, translatorFor, lookup } from '../../extension/persona/i18n';
import { PERSONA_FIELDS } from '../../src/game/persona';
import { EMOTIONS } from '../../src/game/emotion';

const en = require('../../i18n/en.js');
const zh = require('../../i18n/zh.js');

describe('i18n', () => {
  it('has the same keys in English and Chinese', () => {
    expect(keysOf(zh)).toEqual(keysOf(en));
  });

  it('keeps the builder texts', () => {
    expect(lookup(en, 'builder.enableNano.label')).toBeTruthy();
    expect(lookup(zh, 'builder.enableNano.label')).toBeTruthy();
  });

  it('has a label and help for every persona field and a name for every emotion', () => {
    for (const dict of [en, zh]) {
      for (const field of PERSONA_FIELDS) {
        expect(lookup(dict, `persona.field.${field}.label`)).toBeTruthy();
        expect(lookup(dict, `persona.field.${field}.help`)).toBeTruthy();
      }
      for (const emotion of EMOTIONS) expect(lookup(dict, `persona.emotion.${emotion}`)).toBeTruthy();
    }
  });

  it('writes the Chinese texts in Chinese, with the same placeholders', () => {
    const cjk = /[\u4e00-\u9fff]/;
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    for (const key of keysOf(en).filter((name) => name.startsWith('persona.'))) {
      const zhText = lookup(zh, key)!;
      expect({ key, chinese: cjk.test(zhText) }).toEqual({ key, chinese: true });
      expect({ key, vars: placeholders(zhText) }).toEqual({ key, vars: placeholders(lookup(en, key)!) });
    }
  });

  it('fills placeholders and gives unknown keys back', () => {
    const translate = translatorFor(en);
    expect(translate('persona.saveFailed', { reason: 'disk full' })).toBe('Could not save: disk full');
    expect(translate('persona.nope')).toBe('persona.nope');
    expect(translatorFor(zh)('persona.saveFailed', { reason: 'x' })).toBe('无法保存：x');
  });
});
