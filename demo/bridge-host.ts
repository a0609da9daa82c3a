/**
 * A host driving an NPC over oam-cocos's JSON-RPC protocol v1.0: JSON lines in, lines out.
 * The README's "Driving oam-cocos over JSON-RPC" shows this file from the import on, and
 * tests/bridge/host-example.test.ts runs it and checks the README still matches it.
 *
 *   node scripts/run-ts.mjs demo/bridge-host.ts
 */
import { BridgeEngine } from '../src';

// The host: every line the engine sends is printed; a tool/call is answered by the game.
const engine = new BridgeEngine({
  send: (line) => {
    console.log(`<- ${line}`);
    const message = JSON.parse(line);
    if (message.method === 'tool/call' && message.params.call.name === 'check_menu') {
      engine.receive(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { output: { ale: 3, stew: 5 } } }));
    }
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
requests.forEach((request, index) => {
  const line = JSON.stringify({ jsonrpc: '2.0', id: index + 1, ...request });
  console.log(`-> ${line}`);
  engine.receive(line); // pipelined: requests run in arrival order, the talk after the create
});
