/**
 * Pictures from the game for a turn with an image (`npc.talk(line, { image })`, `decide(…, image)`):
 * a RenderTexture the game drew into (a badge the player painted, a camera's view), a Texture2D,
 * or a web canvas, as a PNG `ImageInput`. On a phone there is no canvas to encode with, so a
 * RenderTexture's pixels are read with `readPixels()` and encoded by the runtime's own PNG
 * writer (stored, not compressed: keep pictures to a few hundred pixels a side).
 */
import { ImageAsset, RenderTexture, Texture2D } from 'cc';
import { AgentError, imageFromDataUrl, imageFromPixels } from '../runtime/oam-core.js';
import type { ImageInput } from '../runtime/oam-core.js';

export interface ImageCaptureOptions {
  /** What the picture shows, for the stand-in's rules and logs (never sent to a real model). */
  label?: string;
  /**
   * Rows read bottom to top, as GL's readPixels gives them: flipped so the picture is upright.
   * Default true for a RenderTexture (not verified on every backend: set false if it arrives
   * upside down), false for a texture's own pixels.
   */
  flipY?: boolean;
}

/** What an HTML canvas offers (web builds and previews only). */
interface CanvasLike {
  width: number;
  height: number;
  toDataURL(type?: string): string;
  getContext?(kind: '2d'): { drawImage(source: unknown, x: number, y: number): void } | null;
}

/** A RenderTexture's pixels as a PNG. Render into it first (a camera's targetTexture, one frame). */
export function imageFromRenderTexture(texture: RenderTexture, options: ImageCaptureOptions = {}): ImageInput {
  const pixels = texture.readPixels();
  if (!pixels)
    throw new AgentError(
      'invalid_request',
      'The RenderTexture has no pixels to read yet: render into it for a frame first.',
    );
  return imageFromPixels({
    width: texture.width,
    height: texture.height,
    pixels,
    flipY: options.flipY !== false,
    label: options.label,
  });
}

/** A web canvas (a drawing board in a web build) as a PNG. */
export function imageFromCanvas(canvas: CanvasLike, options: ImageCaptureOptions = {}): ImageInput {
  return imageFromDataUrl(canvas.toDataURL('image/png'), {
    width: canvas.width,
    height: canvas.height,
    ...(options.label !== undefined ? { label: options.label } : {}),
  });
}

/**
 * A Texture2D (or its ImageAsset) as a PNG: its RGBA8888 pixels when it holds them in memory,
 * else its web image drawn into a canvas. A texture a phone holds only on the GPU cannot be read
 * this way: draw it into a RenderTexture and use imageFromRenderTexture.
 */
export function imageFromTexture(texture: Texture2D | ImageAsset, options: ImageCaptureOptions = {}): ImageInput {
  const asset = texture instanceof Texture2D ? texture.image : texture;
  const source = asset ? asset.data : null;
  if (asset && source && ArrayBuffer.isView(source) && source.byteLength === asset.width * asset.height * 4) {
    const pixels = new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return imageFromPixels({
      width: asset.width,
      height: asset.height,
      pixels,
      flipY: options.flipY === true,
      label: options.label,
    });
  }
  const canvas =
    source && typeof (source as Partial<CanvasLike>).toDataURL === 'function'
      ? (source as unknown as CanvasLike)
      : drawn(source);
  if (!canvas)
    throw new AgentError(
      'invalid_request',
      'This texture has no pixels the game can read here (compressed, or on the GPU only): draw it into a RenderTexture and use imageFromRenderTexture.',
    );
  return imageFromCanvas(canvas, options);
}

/** A web image drawn into a fresh canvas, where the page has a document; null elsewhere. */
function drawn(source: unknown): CanvasLike | null {
  const doc = (globalThis as { document?: { createElement(tag: 'canvas'): CanvasLike } }).document;
  const size = source as { width?: number; height?: number } | null;
  if (!doc || !size || !size.width || !size.height) return null;
  const canvas = doc.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext ? canvas.getContext('2d') : null;
  if (!context) return null;
  context.drawImage(source, 0, 0);
  return canvas;
}
