import { LineEdit, applyEdits, commentStyleFor, splitLines, stripBlocks } from '../../extension/builder/marked-blocks';
import { compareVersions, isOlder, parseVersion } from '../../extension/builder/versions';

describe('marked blocks', () => {
  test('comment syntax follows the file type', () => {
    expect(commentStyleFor('app/AndroidManifest.xml')).toBe('xml');
    expect(commentStyleFor('gradle.properties')).toBe('hash');
    expect(commentStyleFor('build.gradle')).toBe('slash');
  });

  test('a replacement keeps the original line and stripping restores it exactly', () => {
    const lines = splitLines('a\n  value=1  \nb\n');
    const edit: LineEdit = { at: 1, kind: 'replace', content: ['value=2'], indent: '  ', description: 'raise' };
    const patched = applyEdits(lines, [edit], 'hash');
    expect(patched).toEqual([
      'a',
      '  # >>> oam-cocos (added by the oam-cocos extension; do not edit inside)',
      '  value=2',
      '  # was: value=1  ',
      '  # <<< oam-cocos',
      'b',
      '',
    ]);
    expect(stripBlocks(patched)).toEqual({ lines, blockCount: 1, saved: new Map() });
  });

  test('unbalanced markers are errors, not guesses', () => {
    expect(stripBlocks(['// >>> oam-cocos (x)', 'a']).error).toMatch(/never closed/);
    expect(stripBlocks(['a', '// <<< oam-cocos']).error).toMatch(/end marker without a start marker/);
    expect(stripBlocks(['# >>> oam-cocos', '# >>> oam-cocos', '# <<< oam-cocos']).error).toMatch(/starts before/);
  });

  test('lines that only mention oam-cocos are not markers', () => {
    const lines = ['// uses oam-cocos >>> here', "include ':oam-cocos'"];
    expect(stripBlocks(lines)).toEqual({ lines, blockCount: 0, saved: new Map() });
  });
});

describe('versions', () => {
  test('compare numerically, with pre-releases before the release', () => {
    expect(isOlder('8.0.2', '8.6.1')).toBe(true);
    expect(isOlder('8.6.1', '8.13.2')).toBe(true);
    expect(isOlder('8.10.0', '8.6.1')).toBe(false);
    expect(isOlder('8.6.1', '8.6.1')).toBe(false);
    expect(isOlder('8.7', '8.7.0')).toBe(false);
    expect(isOlder('8.6.1-rc-1', '8.6.1')).toBe(true);
    expect(isOlder('$agp', '8.6.1')).toBeNull();
    expect(compareVersions(parseVersion('2.3.0-Beta1')!, parseVersion('2.3.0-Beta2')!)).toBeLessThan(0);
  });
});
