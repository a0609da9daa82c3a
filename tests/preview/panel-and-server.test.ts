/** The editor panel's reading of an NPC node dump, and the preview server's edges. */
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseInitialWorld, readNpcNode, readWorldStore } from '../../extension/panels/preview/npc-dump';
import { startPreviewServer, type RunningPreview } from '../../preview/preview-server';

describe('readNpcNode (scene query-node dump)', () => {
  const dump = (comps: unknown[]) => ({ name: { value: 'Mira' }, __comps__: comps });
  /** A ToolDeclaration entry as the scene dumps it: each field of the class wrapped as { value }. */
  const declaration = (name: string, description: string, parametersSchema = '') => ({
    type: 'oam.ToolDeclaration',
    value: {
      name: { value: name },
      description: { value: description },
      parametersSchema: { value: parametersSchema },
      timeoutMs: { value: 0 },
    },
  });
  /** Every Inspector property of NPCComponent, as dumped (values as the sample's Mira sets them). */
  const npcComponent = (overrides: Record<string, unknown> = {}) => {
    const props: Record<string, unknown> = {
      persona: { uuid: 'a1b2-c3' },
      worldStore: { uuid: 'store-comp-1' },
      worldReadable: [{ value: '' }],
      worldWritable: [{ value: 'player.gold' }, { value: 'player.inventory' }],
      worldContextPaths: [{ value: 'player.gold' }, { value: 'time' }],
      groundingTool: ' check_menu ',
      replyFormat: 1,
      rememberFacts: true,
      trackRelationship: true,
      secretsUnlockAt: 10,
      secretsAlwaysGuarded: false,
      emotions: [{ value: 'happy' }, { value: ' sad ' }, { value: '' }],
      playerOptionCount: 2,
      canEndConversation: false,
      fallbackLines: [{ value: 'Busy night, love.' }, { value: '  ' }],
      externalTools: [
        declaration('open_door', 'Opens a door.', '{"type":"object","properties":{"door":{"type":"string"}}}'),
        declaration('shrug', 'Shrugs.', 'not json'),
        declaration('', 'nameless'),
        { value: { description: { value: 'no name' } } },
      ],
      extraInstructions: '  Never mention the cellar.  ',
      externalToolTimeoutMs: 30000,
      toolTimeoutMs: 10000,
      priority: 100,
      ...overrides,
    };
    const value: Record<string, unknown> = {};
    for (const [name, given] of Object.entries(props)) value[name] = { value: given };
    return { type: 'oam.NPCComponent', value };
  };

  test('finds the persona uuid, the declared tools (parametersSchema), the options and the world store', () => {
    const info = readNpcNode(dump([{ type: 'cc.UITransform', value: {} }, npcComponent()]));
    expect(info).toEqual({
      componentType: 'oam.NPCComponent',
      personaUuid: 'a1b2-c3',
      worldStoreUuid: 'store-comp-1',
      properties: expect.objectContaining({ groundingTool: ' check_menu ', replyFormat: 1 }),
      // Every declared entry, as NPCComponent reads them: it refuses the last three by name.
      tools: [
        {
          name: 'open_door',
          description: 'Opens a door.',
          parameters: { type: 'object', properties: { door: { type: 'string' } } },
        },
        {
          name: 'shrug',
          description: 'Shrugs.',
          parametersError: expect.stringMatching(/^the parameters schema is not JSON \(/),
        },
        { name: '', description: 'nameless' },
        { name: '', description: 'no name' },
      ],
      options: {
        worldReadable: [''],
        worldWritable: ['player.gold', 'player.inventory'],
        worldContextPaths: ['player.gold', 'time'],
        groundingTool: 'check_menu',
        replyFormat: 'structured',
        memoryTools: { facts: true, relationship: true },
        secretsUnlockAtRelationship: 10,
        emotions: ['happy', 'sad'],
        playerOptionCount: 2,
        canEndConversation: false,
        fallbackLines: ['Busy night, love.'],
        extraInstructions: 'Never mention the cellar.',
        externalToolTimeoutMs: 30000,
        toolTimeoutMs: 10000,
        priority: 100,
      },
    });
  });

  test('the dump above uses the real field names of NPCComponent and ToolDeclaration', () => {
    const declared = (file: string) => {
      const source = readFileSync(resolve(__dirname, '../../assets/components', file), 'utf8');
      return new Set(Array.from(source.matchAll(/^ {2}(\w+)(?:: [^=;]+)? = /gm), (match) => match[1]));
    };
    const npcFields = declared('NPCComponent.ts');
    for (const key of Object.keys(npcComponent().value)) expect([key, npcFields.has(key)]).toEqual([key, true]);
    const toolFields = declared('ToolDeclaration.ts');
    expect(Object.keys(declaration('x', 'y').value).filter((key) => !toolFields.has(key))).toEqual([]);
  });

  test('secrets always guarded means no unlock threshold; empty lists and text are left out; an unknown format is automatic', () => {
    const info = readNpcNode(
      dump([
        npcComponent({
          secretsAlwaysGuarded: true,
          worldStore: null,
          groundingTool: '',
          emotions: [],
          fallbackLines: [],
          extraInstructions: ' ',
          replyFormat: 9,
        }),
      ]),
    );
    expect(info?.options.secretsUnlockAtRelationship).toBeNull();
    expect(info?.worldStoreUuid).toBeUndefined();
    for (const key of ['groundingTool', 'emotions', 'fallbackLines', 'extraInstructions'])
      expect(info?.options).not.toHaveProperty(key);
    expect(info?.options.replyFormat).toBe('automatic');
  });

  test('no NPC component, no persona set, or not a dump at all', () => {
    expect(readNpcNode(dump([{ type: 'cc.Sprite', value: {} }, { type: 'oam.NPCComponentHelper' }]))).toBeNull();
    expect(
      readNpcNode(dump([{ type: 'oam.NPCComponent', value: { persona: { value: { uuid: '' } } } }])),
    ).toMatchObject({ personaUuid: undefined, tools: [], options: {} });
    expect(readNpcNode(dump([{ type: 'oam.NPCComponent' }]))).toMatchObject({ personaUuid: undefined });
    for (const bad of [null, undefined, 'node', {}, { __comps__: 'x' }]) expect(readNpcNode(bad)).toBeNull();
  });
});

describe("the NPC's world store", () => {
  const store = (value: Record<string, unknown>) => ({ type: 'oam.WorldStateStore', value });

  test('reads the JSON asset uuid and the inline JSON of a WorldStateStore dump', () => {
    expect(
      readWorldStore(store({ initialState: { value: { uuid: 'world-asset' } }, initialJson: { value: '{"a":1}' } })),
    ).toEqual({ initialStateUuid: 'world-asset', initialJson: '{"a":1}' });
    expect(readWorldStore(store({ initialState: { value: null }, initialJson: { value: '  ' } }))).toEqual({});
    for (const bad of [null, 'x', { type: 'cc.Sprite', value: {} }, {}]) expect(readWorldStore(bad)).toBeNull();
  });

  test('parses the initial world: an object, or the problem', () => {
    expect(parseInitialWorld('{"player":{"gold":20}}')).toEqual({ ok: true, world: { player: { gold: 20 } } });
    expect(parseInitialWorld('{')).toMatchObject({ ok: false, problem: expect.stringContaining('not JSON') });
    expect(parseInitialWorld('[1]')).toEqual({ ok: false, problem: 'the world state is not a JSON object' });
    expect(parseInitialWorld('null')).toMatchObject({ ok: false });
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
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', fail);
      req.end();
    });
  }

  test('builds the page (bundle, html, css) and serves it on loopback', async () => {
    for (const file of ['index.html', 'page.js', 'style.css']) expect(existsSync(join(outDir, file))).toBe(true);
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
    await expect(startPreviewServer({ port: running.port, root, outDir })).rejects.toThrow(
      `Port ${running.port} is in use`,
    );
  });
});
