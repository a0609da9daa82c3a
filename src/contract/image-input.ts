/**
 * Image input: one encoded picture (PNG or JPEG) sent with a request or a player's turn, and the
 * checks every backend shares. The bytes travel as base64 because every transport here is text
 * (JSON-RPC over the Cocos bridge, JSON to an OpenAI-compatible server). Depends on nothing, so
 * it runs in Cocos's native VMs, which have no atob/btoa.
 */
import { AgentError } from './errors';

export type ImageMimeType = 'image/png' | 'image/jpeg';

export interface ImageInput {
  /** The encoded file (PNG or JPEG) as plain base64, without a `data:` prefix. */
  data: string;
  mimeType: ImageMimeType;
  /** Pixel size, when the game knows it (for logs and previews; backends read it from the file). */
  width?: number;
  height?: number;
  /**
   * What the picture shows, in a few words ("guild badge"), for scripted models, previews and
   * logs. Never sent to a real model: that one looks at the pixels.
   */
  label?: string;
}

export const IMAGE_MIME_TYPES: readonly ImageMimeType[] = ['image/png', 'image/jpeg'];
/** Largest encoded image accepted (3 MiB): a phone game sends a badge or a screenshot, not a photo library. */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;
/** Largest side in pixels, when the size is given. */
export const MAX_IMAGE_SIDE = 8192;
/** What an image costs in the prompt budget: Gemini Nano counts about 256 tokens per image whatever its size. */
export const IMAGE_INPUT_TOKENS = 256;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_FORM = /^[A-Za-z0-9+/]*={0,2}$/;
/** Char code → base64 digit, -1 for anything else. */
const DIGITS: Int16Array = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let index = 0; index < BASE64.length; index++) table[BASE64.charCodeAt(index)] = index;
  return table;
})();
const SIGNATURES: Record<ImageMimeType, number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** Decoded size of a base64 text of valid form. */
function decodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/**
 * Checks one image and names what is wrong (`where` is how the caller calls it: `images[0]`,
 * `image`): an unknown type, empty or non-base64 data, a file too large, bytes that are not the
 * type the mimeType says, a size that is not a whole number of pixels.
 */
export function checkImageInput(image: unknown, where = 'image'): asserts image is ImageInput {
  if (typeof image !== 'object' || image === null || Array.isArray(image))
    throw new AgentError('invalid_request', `${where} must be an object { data, mimeType } (an encoded PNG or JPEG).`);
  const { data, mimeType, width, height, label } = image as Record<string, unknown>;
  if (typeof mimeType !== 'string' || IMAGE_MIME_TYPES.indexOf(mimeType as ImageMimeType) < 0)
    throw new AgentError(
      'invalid_request',
      `${where}.mimeType must be "image/png" or "image/jpeg", got ${JSON.stringify(mimeType)}.`,
    );
  if (typeof data !== 'string' || data.length === 0)
    throw new AgentError('invalid_request', `${where}.data must be the image file as base64; it is empty or missing.`);
  if (data.startsWith('data:'))
    throw new AgentError(
      'invalid_request',
      `${where}.data is a data: URL; pass the base64 after the comma (imageFromDataUrl() does it).`,
    );
  if (data.length % 4 !== 0 || !BASE64_FORM.test(data))
    throw new AgentError(
      'invalid_request',
      `${where}.data is not base64 (only A-Z a-z 0-9 + / and = padding, a multiple of 4 characters, no spaces).`,
    );
  const size = decodedLength(data);
  if (size > MAX_IMAGE_BYTES)
    throw new AgentError(
      'invalid_request',
      `${where} is ${size} bytes; the limit is ${MAX_IMAGE_BYTES}. Send a smaller picture (a few hundred pixels a side is plenty).`,
    );
  const signature = SIGNATURES[mimeType as ImageMimeType];
  const head = base64ToBytes(data.slice(0, 12));
  if (head.length < signature.length || signature.some((byte, index) => head[index] !== byte))
    throw new AgentError(
      'invalid_request',
      `${where}.data is not a ${mimeType.slice(6).toUpperCase()} file (as its mimeType says).`,
    );
  checkSide(width, `${where}.width`);
  checkSide(height, `${where}.height`);
  if (label !== undefined && typeof label !== 'string')
    throw new AgentError('invalid_request', `${where}.label must be a string when given.`);
}

function checkSide(value: unknown, where: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_IMAGE_SIDE)
    throw new AgentError(
      'invalid_request',
      `${where} must be a whole number of pixels from 1 to ${MAX_IMAGE_SIDE}, got ${String(value)}.`,
    );
}

/** Checks a list of images (`request.images`, a run's `images`). Undefined is no images. */
export function checkImages(images: unknown, where = 'images'): asserts images is ImageInput[] | undefined {
  if (images === undefined) return;
  if (!Array.isArray(images))
    throw new AgentError('invalid_request', `${where} must be a list of images [{ data, mimeType }].`);
  images.forEach((image, index) => checkImageInput(image, `${where}[${index}]`));
}

/** What a backend says about images; the model's capabilities carry it. */
export interface ImageAcceptance {
  modelName: string;
  imageInput?: boolean;
  maxImagesPerRequest?: number;
}

/**
 * Refuses images a backend cannot take, before anything is sent: a backend without image input,
 * or more images than it takes in one request. `backend` names it in the message.
 */
export function checkImagesAccepted(
  images: readonly ImageInput[] | undefined,
  accepts: ImageAcceptance,
  backend: string = accepts.modelName,
): void {
  if (!images || images.length === 0) return;
  if (accepts.imageInput !== true)
    throw new AgentError(
      'invalid_request',
      `${backend} does not take images (its capabilities say imageInput is not true): send this without the image, or use a model that takes images.`,
    );
  const max = accepts.maxImagesPerRequest;
  if (max !== undefined && images.length > max)
    throw new AgentError(
      'invalid_request',
      `${backend} takes ${max} image${max === 1 ? '' : 's'} per request, got ${images.length}.`,
    );
}

/** The image's bytes (the decoded base64). */
export function imageBytes(image: ImageInput): Uint8Array {
  return base64ToBytes(image.data);
}

/** `data:image/png;base64,…`, the form OpenAI's `image_url` and HTML img take. */
export function imageDataUrl(image: ImageInput): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** An ImageInput from a `data:image/png;base64,…` URL (what an HTML canvas's toDataURL() gives). */
export function imageFromDataUrl(url: string, extra: Pick<ImageInput, 'width' | 'height' | 'label'> = {}): ImageInput {
  const match = typeof url === 'string' ? /^data:(image\/(?:png|jpeg));base64,(.*)$/.exec(url) : null;
  if (!match)
    throw new AgentError('invalid_request', 'imageFromDataUrl() needs a "data:image/png;base64,…" or image/jpeg URL.');
  const image: ImageInput = { data: match[2], mimeType: match[1] as ImageMimeType, ...extra };
  checkImageInput(image);
  return image;
}

/** An ImageInput from the bytes of an encoded PNG or JPEG file. */
export function imageFromBytes(
  bytes: Uint8Array,
  mimeType: ImageMimeType,
  extra: Pick<ImageInput, 'width' | 'height' | 'label'> = {},
): ImageInput {
  const image: ImageInput = { data: bytesToBase64(bytes), mimeType, ...extra };
  checkImageInput(image);
  return image;
}

/** Standard base64 (with padding) of bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const triple = (bytes[index] << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    out += BASE64[(triple >> 18) & 63] + BASE64[(triple >> 12) & 63];
    out += index + 1 < bytes.length ? BASE64[(triple >> 6) & 63] : '=';
    out += index + 2 < bytes.length ? BASE64[triple & 63] : '=';
  }
  return out;
}

/** The bytes of a base64 text of valid form (checkImageInput checks the form). */
export function base64ToBytes(data: string): Uint8Array {
  const clean = data.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let index = 0; index < clean.length; index++) {
    const code = clean.charCodeAt(index);
    const digit = code < 128 ? DIGITS[code] : -1;
    if (digit < 0) throw new AgentError('invalid_request', 'The image data is not base64.');
    value = ((value << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}
