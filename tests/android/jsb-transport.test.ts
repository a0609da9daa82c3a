/**
 * assets/bridge/JsbBridgeTransport.ts with a small stand-in for what the native build's `cc`
 * exposes (native.jsbBridgeWrapper, native.bridge, native.reflection, game): the `detach` sent
 * before game.restart(), and diagnose() for each way the handshake can go unanswered.
 */
const sent: Array<{ event: string; arg?: string }> = [];
const order: string[] = [];
const fake = {
  game: {
    restart: jest.fn(() => {
      order.push('restart');
    }),
  },
  native: {
    jsbBridgeWrapper: {
      dispatchEventToNative: (event: string, arg?: string) => {
        sent.push({ event, arg });
        order.push(`send:${arg}`);
      },
      addNativeEventListener: jest.fn(),
      removeNativeEventListener: jest.fn(),
    },
    bridge: { onNative: (() => undefined) as unknown },
    reflection: { callStaticMethod: jest.fn((..._args: unknown[]): unknown => undefined) },
  },
};
jest.mock('cc', () => fake, { virtual: true });
jest.mock('cc/env', () => ({ NATIVE: true }), { virtual: true });
jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });

interface TransportLike {
  send(message: string): void;
  diagnose(): string | undefined;
  dispose(): void;
}
const { JsbBridgeTransport } = require('../../assets/bridge/JsbBridgeTransport') as {
  JsbBridgeTransport: new () => TransportLike;
};

const DETACH = '{"jsonrpc":"2.0","method":"detach","params":{}}';

describe('JsbBridgeTransport on a native build', () => {
  beforeEach(() => {
    sent.length = 0;
    order.length = 0;
    fake.native.reflection.callStaticMethod.mockReset();
  });

  test('game.restart() tells the native side detach first, synchronously, once per restart (wrapped once)', () => {
    const t1 = new JsbBridgeTransport();
    const t2 = new JsbBridgeTransport();
    (fake.game.restart as unknown as () => void)();
    expect(order).toEqual([`send:${DETACH}`, 'restart']);
    expect(sent).toEqual([{ event: 'oam-cocos', arg: DETACH }]);
    t1.dispose();
    t2.dispose();
  });

  test('diagnose: onNative replaced by game code (JS side) is named first', () => {
    const transport = new JsbBridgeTransport();
    const wrapperCallback = fake.native.bridge.onNative;
    fake.native.bridge.onNative = () => 'the game took it';
    try {
      expect(transport.diagnose()).toMatch(/^Game code replaced native\.bridge\.onNative .*addNativeEventListener/);
      expect(fake.native.reflection.callStaticMethod).not.toHaveBeenCalled();
    } finally {
      fake.native.bridge.onNative = wrapperCallback;
      transport.dispose();
    }
  });

  test('diagnose: JsbBridge.setCallback taken on the Java side, named with the class holding it', () => {
    fake.native.reflection.callStaticMethod.mockReturnValue(
      JSON.stringify({
        module: 'oam-nano',
        protocol: 1,
        callback: 'replaced',
        callbackClass: 'com.example.game.AppActivity$1',
      }),
    );
    const transport = new JsbBridgeTransport();
    expect(transport.diagnose()).toMatch(
      /^Game code called JsbBridge\.setCallback .*\(now held by com\.example\.game\.AppActivity\$1\).*addScriptEventListener/,
    );
    expect(fake.native.reflection.callStaticMethod).toHaveBeenCalledWith(
      'com/oamcocos/nano/android/OamNanoProbe',
      'describe',
      '()Ljava/lang/String;',
    );
    transport.dispose();
  });

  test('diagnose: the module missing from the APK (the probe cannot be called, or throws)', () => {
    const transport = new JsbBridgeTransport();
    expect(transport.diagnose()).toMatch(/not in this APK.*instant app/);
    fake.native.reflection.callStaticMethod.mockImplementation(() => {
      throw new Error('ClassNotFoundException');
    });
    expect(transport.diagnose()).toMatch(/not in this APK/);
    transport.dispose();
  });

  test('diagnose: nothing to say when the module is there and the wrapper holds the callback', () => {
    fake.native.reflection.callStaticMethod.mockReturnValue(
      JSON.stringify({ module: 'oam-nano', protocol: 1, callback: 'jsbBridgeWrapper' }),
    );
    const transport = new JsbBridgeTransport();
    expect(transport.diagnose()).toBeUndefined();
    transport.dispose();
  });
});
