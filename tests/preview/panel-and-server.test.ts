/** The editor panel's reading of an NPC node dump, and the preview server's edges. */
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readNpcNode } from '../../extension/panels/preview/npc-dump';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';

describe('readNpcNode (scene query-node dump)', () => {
  const dump = (comps: unknown[]) => ({ name: { value: 'Mira' }, __comps__: comps });

  test('finds the NPC component, its persona asset uuid and its external tools', () => {
    const info = readNpcNode(dump([
      { type: 'cc.UITransform', value: {} },
      {
        type: 'oam.NPCComponent',
        value: {
          persona: { type: 'cc.JsonAsset', value: { uuid: 'a1b2-c3' } },
          externalTools: {
            type: 'Array',
            value: [
              { value: { name: { value: 'open_door' }, description: { value: 'Opens a door.' }, parameters: { value: '{"type":"object","properties":{"door":{"type":"string"}}}' } } },
              { value: { name: { value: 'shrug' }, description: { value: 'Shrugs.' }, parameters: { value: 'not json' } } },
              { value: { name: { value: '' }, description: { value: 'nameless' } } },
              { value: { description: { value: 'no name' } } },
            ],
          },
        },
      },
    ]));
    expect(info).toEqual({
      componentType: 'oam.NPCComponent',
      personaUuid: 'a1b2-c3',
      tools: [
        { name: 'open_door', description: 'Opens a door.', parameters: { type: 'object', properties: { door: { type: 'string' } } } },
        { name: 'shrug', description: 'Shrugs.' },
      ],
    });
  });

  test('plain tool entries and an object schema are read too', () => {
    const info = readNpcNode(dump([{ type: 'NPCComponent', value: { tools: { value: [{ name: 'wave', description: 'Waves.', schema: { type: 'object' } }] } } }]));
    expect(info).toEqual({ componentType: 'NPCComponent', personaUuid: undefined, tools: [{ name: 'wave', description: 'Waves.', parameters: { type: 'object' } }] });
  });

  test('no NPC component, no persona set, or not a dump at all', () => {
    expect(readNpcNode(dump([{ type: 'cc.Sprite', value: {} }, { type: 'oam.NPCComponentHelper' }]))).toBeNull();
    expect(readNpcNode(dump([{ type: 'oam.NPCComponent', value: { persona: { value: { uuid: '' } } } }]))).toMatchObject({ personaUuid: undefined, tools: [] });
    expect(readNpcNode(dump([{ type: 'oam.NPCComponent' }]))).toMatchObject({ personaUuid: undefined });
    for (const bad of [null, undefined, 'node', {}, { __comps__: 'x' }]) expect(readNpcNode(bad)).toBeNull();
  });
});

describe('preview server', () => {
  const root = resolve(__dirname, '../..');
  let outDir: string;
  let running: RunningPreview;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'oam-preview-srv-'));
    running = await startPreviewServer({ port: 0, root, outDir });
  });
  afterAll(async () => {
    await running?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  function get(path: string, method = 'GET'): Promise<{ status: number; type?: string; body: string }> {
    return new Promise((done, fail) => {
      const req = request({ host: '127.0.0.1', port: running.port, path, method }, (res) => {
        let body = '';
        res.on('data', (c) => { body += c; });
        res.on('end', () => done({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', fail);
      req.end();
    });
  }

  test('builds the page (bundle, html, css) and serves it on loopback', async () => {
    for (const f of ['index.html', 'page.js', 'style.css']) expect(existsSync(join(outDir, f))).toBe(true);
    expect(readFileSync(join(outDir, 'page.js'), 'utf8')).not.toMatch(/require\(["']node:/);
    expect(running.url).toBe(`http://127.0.0.1:${running.port}/`);
    const html = await get('/?openaiUrl=x');
    expect(html.status).toBe(200);
    expect(html.type).toContain('text/html');
    expect(html.body).toContain('<script src="page.js"></script>');
    expect((await get('/style.css')).type).toContain('text/css');
  });

  test('anything else is 404, other methods 405', async () => {
    expect((await get('/../package.json')).status).toBe(404);
    expect((await get('/src/index.ts')).status).toBe(404);
    expect((await get('/page.js', 'POST')).status).toBe(405);
    expect((await get('/page.js', 'HEAD')).status).toBe(200);
  });

  test('a bad port or a port in use is a clear error', async () => {
    await expect(startPreviewServer({ port: -1, root, outDir })).rejects.toThrow(/port must be a whole number/);
    await expect(startPreviewServer({ port: 70000, root, outDir })).rejects.toThrow(/port must be/);
    await expect(startPreviewServer({ port: running.port, root, outDir })).rejects.toThrow(`Port ${running.port} is in use`);
  });
});

