/**
 * The tavern as a player meets it in a browser: a page of the built site in headless Chromium
 * (WebGL2 through SwiftShader), read and driven through what a player sees and does. Labels are
 * read from the engine's own scene graph (the strings the engine draws); clicks and typing are
 * real mouse and keyboard input at the node's place on the canvas, through the engine's input.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium';

/** WebGL2 on the CPU: Debian's Chromium ships SwiftShader. `--disable-gpu` would leave no WebGL. */
const WEBGL_ARGS = [
  ...CHROMIUM_ARGS.filter((flag) => flag !== '--disable-gpu'),
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** A phone held sideways, as the sample's 1280×720 design resolution expects. */
export const VIEWPORT = { width: 1280, height: 720 };

/** The part of the engine's namespace (window.__oamPlay.cc, set by boot.js) the tests read. */
interface SceneNode {
  name: string;
  activeInHierarchy: boolean;
  components: unknown[];
  getChildByPath(path: string): SceneNode | null;
  getComponent<T>(type: unknown): T | null;
}
interface PageEngine {
  director: { getScene(): SceneNode };
  js: { getClassName(object: unknown): string };
  game: { canvas: HTMLCanvasElement };
  Label: unknown;
  Sprite: unknown;
  UITransform: unknown;
  Camera: unknown;
  Vec3: new (x: number, y: number, z: number) => unknown;
}
export interface PlayWindow {
  __oamPlay: PlayState & { cc: PageEngine };
}

export interface PlaySession {
  browser: Browser;
  page: Page;
  url: string;
  close(): Promise<void>;
}

/** What went wrong while the page booted or played: errors, missing classes, components that failed. */
export interface PlayState {
  errors: string[];
  sceneLaunched: boolean;
}

/** Opens the site served at `url` (scripts/web/test-play.mjs serves it) in a fresh Chromium. */
export async function openTavern(url: string): Promise<PlaySession> {
  const browser = await chromium.launch({ executablePath: findChromium(), args: WEBGL_ARGS });
  const page = await browser.newPage({ viewport: VIEWPORT });
  page.on('console', (message) => {
    if (process.env.OAM_PLAY_VERBOSE) console.log(`[page ${message.type()}] ${message.text()}`);
  });
  await page.goto(url);
  return { browser, page, url, close: () => browser.close() };
}

/** Waits until the launch scene ran (or the boot failed) and returns what the page recorded. */
export async function bootState(page: Page, timeoutMs = 60000): Promise<PlayState> {
  await page.waitForFunction(
    () => {
      const state = (window as unknown as { __oamPlay?: PlayState }).__oamPlay;
      return !!state && (state.sceneLaunched || state.errors.length > 0);
    },
    undefined,
    { timeout: timeoutMs, polling: 100 },
  );
  // A frame or two more, so components' start() and first updates have run.
  await page.waitForTimeout(500);
  return page.evaluate(() => {
    const state = (window as unknown as { __oamPlay: PlayState }).__oamPlay;
    return { errors: state.errors.slice(), sceneLaunched: state.sceneLaunched };
  });
}

/**
 * The classes of the components on the node at `path`. A built engine drops a component whose
 * class no script registered (and logs "Can not find class"), so a missing class shows here as
 * a shorter list.
 */
export async function componentClasses(page: Page, path: string): Promise<string[]> {
  return page.evaluate((nodePath) => {
    const cc = (window as unknown as PlayWindow).__oamPlay.cc;
    const node = cc.director.getScene().getChildByPath(nodePath);
    if (!node) throw new Error(`no node ${nodePath}`);
    return node.components.map((component) => cc.js.getClassName(component));
  }, path);
}

/** The string a Label at `path` (under the scene, e.g. 'Canvas/Hud') shows now. */
export async function labelText(page: Page, path: string): Promise<string> {
  return page.evaluate((nodePath) => {
    const cc = (window as unknown as PlayWindow).__oamPlay.cc;
    const node = cc.director.getScene().getChildByPath(nodePath);
    if (!node) throw new Error(`no node ${nodePath}`);
    const label = node.getComponent<{ string: string }>(cc.Label);
    if (!label) throw new Error(`${nodePath} has no Label`);
    return label.string;
  }, path);
}

/** Whether the node at `path` is active in the scene (shown). */
export async function isShown(page: Page, path: string): Promise<boolean> {
  return page.evaluate((nodePath) => {
    const cc = (window as unknown as PlayWindow).__oamPlay.cc;
    const node = cc.director.getScene().getChildByPath(nodePath);
    return !!node && node.activeInHierarchy;
  }, path);
}

export interface LabelWait {
  /** The node under the scene, e.g. 'Canvas/Hud'. */
  path: string;
  /** What the label must come to show. */
  shows: RegExp;
  timeoutMs?: number;
}

/** Waits until the Label at `path` shows `shows`; the error names what it showed instead. */
export async function waitForLabel(page: Page, { path, shows, timeoutMs = 15000 }: LabelWait): Promise<string> {
  const until = Date.now() + timeoutMs;
  let text = await labelText(page, path);
  while (!shows.test(text)) {
    if (Date.now() > until) throw new Error(`${path} never showed ${shows}; it shows ${JSON.stringify(text)}`);
    await page.waitForTimeout(100);
    text = await labelText(page, path);
  }
  return text;
}

/** The centre of the node at `path` in the page's CSS pixels (it must be shown). */
export async function screenPoint(page: Page, path: string): Promise<{ x: number; y: number }> {
  if (!(await isShown(page, path))) throw new Error(`no shown node ${path}`);
  const rect = await screenRect(page, path);
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/** A real mouse click on the node at `path`. */
export async function click(page: Page, path: string): Promise<void> {
  const point = await screenPoint(page, path);
  await page.mouse.click(point.x, point.y);
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The colour the engine was told to draw the node's Sprite or Label in. */
export async function tintOf(
  page: Page,
  { path, component }: { path: string; component: 'Sprite' | 'Label' },
): Promise<Rgb> {
  return page.evaluate(
    ({ nodePath, kind }) => {
      const cc = (window as unknown as PlayWindow).__oamPlay.cc;
      const node = cc.director.getScene().getChildByPath(nodePath);
      const renderer = node?.getComponent<{ color: Rgb }>(kind === 'Sprite' ? cc.Sprite : cc.Label);
      if (!renderer) throw new Error(`${nodePath} has no ${kind}`);
      return { r: renderer.color.r, g: renderer.color.g, b: renderer.color.b };
    },
    { nodePath: path, kind: component },
  );
}

/** The node's box on the page, in CSS pixels, from two corners of its world box through the UI camera. */
export async function screenRect(
  page: Page,
  path: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate((nodePath) => {
    const cc = (window as unknown as PlayWindow).__oamPlay.cc;
    const scene = cc.director.getScene();
    const node = scene.getChildByPath(nodePath);
    const transform = node?.getComponent<{ getBoundingBoxToWorld(): Record<'x' | 'y' | 'width' | 'height', number> }>(
      cc.UITransform,
    );
    const camera = scene
      .getChildByPath('Canvas/Camera')
      ?.getComponent<{ worldToScreen(point: unknown): { x: number; y: number } }>(cc.Camera);
    if (!transform || !camera) throw new Error(`${nodePath} has no UITransform, or the scene no Canvas/Camera`);
    const box = transform.getBoundingBoxToWorld();
    const canvas = cc.game.canvas;
    const rect = canvas.getBoundingClientRect();
    const toPage = (worldX: number, worldY: number) => {
      const onScreen = camera.worldToScreen(new cc.Vec3(worldX, worldY, 0));
      return {
        x: rect.left + (onScreen.x * rect.width) / canvas.width,
        y: rect.top + ((canvas.height - onScreen.y) * rect.height) / canvas.height,
      };
    };
    const low = toPage(box.x, box.y);
    const high = toPage(box.x + box.width, box.y + box.height);
    return { x: low.x, y: high.y, width: high.x - low.x, height: low.y - high.y };
  }, path);
}

/**
 * The share of the pixels Chromium shows in the node's box (a screenshot, as a player sees it)
 * that are `color` within `tolerance` per channel. The screenshot is decoded by the browser's
 * own image decoder in a blank page of the same browser.
 */
export async function colourShare(
  session: PlaySession,
  { path, color, tolerance = 24 }: { path: string; color: Rgb; tolerance?: number },
): Promise<number> {
  const clip = await screenRect(session.page, path);
  const png = await session.page.screenshot({ clip });
  const probe = await session.browser.newPage();
  try {
    return await probe.evaluate(
      async ({ base64, wanted, within }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, image.width, image.height).data;
        let near = 0;
        for (let index = 0; index < pixels.length; index += 4) {
          const close =
            Math.abs(pixels[index] - wanted.r) <= within &&
            Math.abs(pixels[index + 1] - wanted.g) <= within &&
            Math.abs(pixels[index + 2] - wanted.b) <= within;
          if (close) near += 1;
        }
        return near / (pixels.length / 4);
      },
      { base64: png.toString('base64'), wanted: color, within: tolerance },
    );
  } finally {
    await probe.close();
  }
}
