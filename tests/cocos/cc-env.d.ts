/**
 * Creator's build-time constants (`cc/env`). A game project gets them from its generated
 * temp/declarations/cc.env.d.ts; @cocos/creator-types lacks them, so the type check of assets/
 * uses this copy. Kept out of assets/ so it never clashes with a project's own declaration.
 */
declare module 'cc/env' {
  export const BUILD: boolean;
  export const PREVIEW: boolean;
  export const EDITOR: boolean;
  export const EDITOR_NOT_IN_PREVIEW: boolean;
  export const DEV: boolean;
  export const DEBUG: boolean;
  export const TEST: boolean;
  export const JSB: boolean;
  export const NATIVE: boolean;
  export const HTML5: boolean;
  export const ANDROID: boolean;
  export const IOS: boolean;
  export const OHOS: boolean;
  export const OPEN_HARMONY: boolean;
  export const MINIGAME: boolean;
  export const RUNTIME_BASED: boolean;
  export const SERVER_MODE: boolean;
  export const WECHAT: boolean;
}
