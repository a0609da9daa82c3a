/**
 * Images for Chrome's Prompt API: a session that is to see pictures declares
 * `expectedInputs: [{ type: 'image' }]` when it is created, and a prompt that carries them is a
 * user message of content parts, `{ type: 'text', value }` then `{ type: 'image', value }`, the
 * value a Blob of the encoded file (an ImageBitmapSource), or its bytes where there is no Blob.
 */
import { imageBytes, type ImageInput } from '../../contract/image-input';
import type { PromptInput, PromptMessage } from './prompt-api';

type BlobCtor = new (parts: unknown[], options?: { type?: string }) => object;

/** The value of an image part: a Blob with the file's type, or the bytes (a BufferSource). */
export function imageValue(image: ImageInput): unknown {
  const bytes = imageBytes(image);
  const Blob = (globalThis as { Blob?: BlobCtor }).Blob;
  return typeof Blob === 'function' ? new Blob([bytes], { type: image.mimeType }) : bytes;
}

/** The prompt as the session takes it: the plain text, or one user message with the text and the images. */
export function promptInput(prompt: string, images: readonly ImageInput[]): PromptInput {
  if (images.length === 0) return prompt;
  const message: PromptMessage = {
    role: 'user',
    content: [
      { type: 'text', value: prompt },
      ...images.map((image) => ({ type: 'image' as const, value: imageValue(image) })),
    ],
  };
  return [message];
}
