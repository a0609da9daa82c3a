/**
 * jsdom has no 2D canvas context, and the engine's Label measures and draws text with one. This
 * context answers every call (text is 10 px per character wide) so labels can be created and
 * their `string` read; nothing here is drawn or checked. Loaded before the engine (setupFiles).
 */
function fakeContext2d(): unknown {
  const known: Record<string, unknown> = {
    measureText: (text: string) => ({ width: String(text).length * 10 }),
    getImageData: () => ({ data: new Uint8ClampedArray(4) }),
    createLinearGradient: () => ({ addColorStop: () => undefined }),
  };
  return new Proxy(known, {
    get: (target, key: string) => (key in target ? target[key] : () => undefined),
    set: (target, key: string, value) => {
      target[key] = value;
      return true;
    },
  });
}

(
  window as unknown as { HTMLCanvasElement: { prototype: { getContext: unknown } } }
).HTMLCanvasElement.prototype.getContext = function getContext(kind: string) {
  return kind === '2d' ? fakeContext2d() : null;
};
