/**
 * oam-cocos/testing: what tests, editor previews and the protocol's `{"type":"scripted"}` models
 * use and a shipped game does not: a model that plays a script, and a stand-in that answers from
 * a persona alone. Kept apart from the runtime entry (index.ts) as vercel/ai keeps `ai/test`.
 */
export { ScriptedLanguageModel, Script } from './scripted/scripted-model';
export type { ScriptStep, ScriptedModelOptions } from './scripted/scripted-model';
// Scripts of the protocol shared with open-apple-models: ScriptedLanguageModel.fromNativeScript(script).
export { readNativeScript } from './scripted/native-script';
export type { NativeScript, NativeScriptStep, NativeToolCall } from './scripted/native-script';
export { KeywordModel } from './scripted/keyword-model';
export type { KeywordModelOptions, KeywordRule, KeywordReply, KeywordContext } from './scripted/keyword-model';
export { createPersonaStandIn, personaSuggestions, STAND_IN_NOTICE } from './scripted/persona-stand-in';
export type { PersonaStandInOptions, StandInTool } from './scripted/persona-stand-in';
export { createProfileStandIn } from './scripted/profile-stand-in';
export type { ProfileStandInOptions } from './scripted/profile-stand-in';
// The turn as the model reads it (the player's line, the tool results), for models that answer from rules.
export { readRenderedTurn } from './core/prompt/render-conversation';
export type { RenderedTurn } from './core/prompt/render-conversation';
