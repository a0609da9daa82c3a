// Starts the tavern on the engine built for the web, as a web-mobile build's application.js
// does: load the engine, init the game with src/settings.json, run. What differs from a build
// of Creator's is said where it is done. Everything that goes wrong is kept in
// window.__oamPlay.errors (the browser test reads it) and shown at the bottom of the page.
/* global System, document, window, fetch */
(function boot() {
  const state = { errors: [], started: false, sceneLaunched: false };
  window.__oamPlay = state;
  const status = document.getElementById('boot-status');
  // A component that throws in update() throws every frame: keep each error once, and at most 50.
  const MAX_ERRORS = 50;
  const fail = (what) => {
    const text = what && what.stack ? String(what.stack) : String(what);
    if (state.errors.includes(text) || state.errors.length >= MAX_ERRORS) return;
    state.errors.push(text);
    status.classList.add('failed');
    status.textContent = `Something failed:\n${state.errors.slice(0, 5).join('\n')}`;
  };
  window.addEventListener('error', (event) => fail(event.error || event.message));
  window.addEventListener('unhandledrejection', (event) => fail(event.reason));
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    fail(args.map((arg) => (arg && arg.stack ? arg.stack : String(arg))).join(' '));
    consoleError(...args);
  };

  // The engine feature units Creator's packer leaves external: here they are all the one cc.js.
  const FEATURE_UNITS = ['base', '2d', 'ui'].map((unit) => `cce:/internal/x/cc-fu/${unit}`);

  /**
   * A BUILD engine reads a sprite frame's texture from the compiled form's dependency list and
   * ignores the `texture` field of the library form (cocos/2d/assets/sprite-frame.ts,
   * `if (!BUILD)`). This site carries the library form, so the dependency is added here.
   */
  function keepSpriteFrameTextures(cc) {
    const original = cc.SpriteFrame.prototype._deserialize;
    cc.SpriteFrame.prototype._deserialize = function deserialize(data, handle) {
      original.call(this, data, handle);
      if (data && data.texture)
        handle.result.push(this, '_textureSource', data.texture, cc.js.getClassId(cc.Texture2D));
    };
  }

  /** `npm run play -- --url …`: what OamRuntimeSettings does, after the scene's own configure(). */
  async function applyPlayOptions(cc) {
    const response = await fetch('play-options.json');
    const options = response.ok ? await response.json() : {};
    if (!options.openaiUrl) return;
    const oam = await System.import(options.componentsModule);
    cc.director.once(cc.Director.EVENT_AFTER_SCENE_LAUNCH, () => {
      oam.OamRuntime.configure({ ...oam.OamRuntime.config, openaiUrl: options.openaiUrl, model: options.model });
    });
  }

  async function start() {
    const cc = await System.import('./cocos-js/cc.js');
    state.cc = cc;
    for (const unit of FEATURE_UNITS) System.set(unit, cc);
    keepSpriteFrameTextures(cc);
    status.textContent = 'Loading the tavern…';
    await cc.game.init({ debugMode: cc.DebugMode.INFO, settingsPath: 'src/settings.json' });
    await applyPlayOptions(cc);
    cc.director.once(cc.Director.EVENT_AFTER_SCENE_LAUNCH, () => {
      state.sceneLaunched = true;
      if (state.errors.length === 0) status.textContent = '';
    });
    cc.game.run();
    state.started = true;
  }

  start().catch(fail);
})();
