/**
 * The entry of the Creator bundle (assets/runtime/oam-core.js): the runtime entry and the testing
 * entry together. Creator loads one ES module per script file, and a second bundle for the
 * testing names would carry its own copy of AgentError and AgentTool, which the components check
 * with instanceof; the scripted models add about 6 KiB. Code outside Creator imports index.ts
 * (`oam-cocos`) or testing.ts (`oam-cocos/testing`).
 */
export * from './index';
export * from './testing';
