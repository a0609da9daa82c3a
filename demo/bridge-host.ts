/**
 * A host driving an NPC over oam-cocos's JSON-RPC protocol v1.0: JSON lines in, lines out.
 * The README's "Driving oam-cocos over JSON-RPC" shows this file from the import on, and
 * tests/bridge/host-example.test.ts runs it and checks the README still matches it. The game adds a
 * method of its own, `tavern/purse`, as a host extension (docs/bridge-protocol.md, "Extensions").
 *
 *   node scripts/run-ts.mjs demo/bridge-host.ts
 */
import { BridgeEngine } from '../src';

// The host: every line the engine sends is printed; a tool/call is answered by the game.
const engine = new BridgeEngine({
  // The game's own methods under a prefix it owns: `tavern/purse` reads the player's gold from
  // the world and sends a `tavern/coins` notification before its answer.
  extensions: [
    {
      prefix: 'tavern/',
      notifications: ['tavern/coins'],
      methods: {
        'tavern/purse': (params, call) => {
          const world = call.world(params.string('world') ?? 'tavern');
          const gold = world.get('player.gold');
          call.notify('tavern/coins', { gold });
          return { world: world.id, gold };
        },
      },
    },
  ],
  send: (line) => {
    console.log(`<- ${line}`);
    const message = JSON.parse(line);
    if (message.method === 'tool/call' && message.params.call.name === 'check_menu') {
      engine.receive(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { output: { ale: 3, stew: 5 } } }));
    }
    // Once Mira has answered, the client asks the game what is left in the purse.
    if (message.id === 5 && 'result' in message) request(6, 'tavern/purse', { world: 'tavern' });
  },
});

// The client: one JSON line per message. A scripted model plays what a real model would say.
const model = {
  type: 'scripted',
  steps: [
    { toolCalls: [{ name: 'check_menu', arguments: {} }] },
    { toolCalls: [{ name: 'update_world_state', arguments: { path: 'player.gold', value: 17 } }] },
    { json: { emotion: 'happy', line: 'Ale is 3 gold. Here you go!' } },
  ],
};
const requests = [
  { method: 'initialize', params: { protocolVersion: '1.0' } },
  { method: 'world/create', params: { world: 'tavern', state: { player: { gold: 20 } } } },
  { method: 'world/subscribe', params: { world: 'tavern', path: 'player' } },
  {
    method: 'npc/create',
    params: {
      npc: 'mira',
      persona: { name: 'Mira', role: 'the innkeeper' },
      world: 'tavern',
      model,
      options: { worldWritable: ['player.gold'] },
      tools: [{ name: 'check_menu', description: "Tonight's menu with prices." }],
    },
  },
  { method: 'npc/talk', params: { npc: 'mira', line: 'An ale, please.', stream: true } },
];
function request(id: number, method: string, params: object): void {
  const line = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  console.log(`-> ${line}`);
  engine.receive(line);
}
// Pipelined: requests run in arrival order, the talk after the create.
requests.forEach((entry, index) => request(index + 1, entry.method, entry.params));
