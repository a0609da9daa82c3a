#!/usr/bin/env node
// Writes assets/scenes/tavern.scene: the sample's one scene, in the JSON form Creator 3.8 saves
// (a flat array of serialized objects: [0] cc.SceneAsset, [1] cc.Scene, then nodes and
// components in depth-first order, linked by {"__id__": index}; assets by {"__uuid__"}; custom
// components typed by their script's compressed uuid). Run it after changing the layout here:
//   node samples/tavern/tools/build-scene.mjs
// Once the scene has been saved from Creator, edit it in Creator instead.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressUuid, stableShortId } from './uuid.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const sample = join(here, '..');
const extensionAssets = [join(sample, 'extensions', 'oam-cocos', 'assets'), join(sample, '..', '..', 'assets')].find((p) => existsSync(join(p, 'index.ts')));
if (!extensionAssets) throw new Error('The oam-cocos extension assets were not found (repository root or extensions/oam-cocos).');

const metaUuid = (path) => JSON.parse(readFileSync(`${path}.meta`, 'utf8')).uuid;
const script = (dir, name) => compressUuid(metaUuid(join(dir, `${name}.ts`)));
const ext = (name) => script(join(extensionAssets, 'components'), name);
const own = (name) => script(join(sample, 'assets', 'scripts'), name);

const SCENE_UUID = metaUuid(join(sample, 'assets', 'scenes', 'tavern.scene'));
const MIRA_PERSONA = metaUuid(join(sample, 'assets', 'mira.persona.json'));
const GUARD_PERSONA = metaUuid(join(sample, 'assets', 'guard.persona.json'));
const TAVERN_WORLD = metaUuid(join(sample, 'assets', 'tavern-world.json'));

// Creator's built-in UI sprites (db://internal/default_ui/*.png), uuids from the engine's
// editor/assets/default_ui metas; "@f9941" is the sprite-frame sub-asset.
export const INTERNAL_SPRITES = {
  default_btn_normal: '20835ba4-6145-4fbc-a58a-051ce700aa3e@f9941',
  default_btn_pressed: '544e49d6-3f05-4fa8-9a9e-091f98fc2ce8@f9941',
  default_btn_disabled: '951249e0-9f16-456d-8b85-a6ca954da16b@f9941',
  default_editbox_bg: 'bd1bcaba-bd7d-4a71-b143-997c882383e4@f9941',
  default_progressbar: '24a704da-2867-446d-8d1a-5e920c75e09d@f9941',
  default_progressbar_bg: '9fd900dd-221b-4f89-8f2c-fba34243c835@f9941',
  default_sprite_splash: '7d8f9b89-4fd1-4c9f-a3ab-38ec7cded7ca@f9941',
};

const LAYER_UI_2D = 33554432;
const LAYER_DEFAULT = 1073741824;

// ---- a tiny object model: SObj = a serialized object with its own array slot -----------------

class SObj {
  constructor(type, fields) {
    this.type = type;
    this.fields = fields;
  }
}

const vec3 = (x = 0, y = 0, z = 0) => ({ __type__: 'cc.Vec3', x, y, z });
const vec2 = (x, y) => ({ __type__: 'cc.Vec2', x, y });
const size = (width, height) => ({ __type__: 'cc.Size', width, height });
const color = (r, g, b, a = 255) => ({ __type__: 'cc.Color', r, g, b, a });
const asset = (uuid, type) => ({ __uuid__: uuid, __expectedType__: type });
const sprite = (name) => asset(INTERNAL_SPRITES[name], 'cc.SpriteFrame');

function node(path, { parent = null, active = true, position = vec3(), layer = LAYER_UI_2D } = {}) {
  const name = path.split('/').pop();
  const n = new SObj('cc.Node', {
    _name: name,
    _objFlags: 0,
    __editorExtras__: {},
    _parent: parent,
    _children: [],
    _active: active,
    _components: [],
    _prefab: null,
    _lpos: position,
    _lrot: { __type__: 'cc.Quat', x: 0, y: 0, z: 0, w: 1 },
    _lscale: vec3(1, 1, 1),
    _mobility: 0,
    _layer: layer,
    _euler: vec3(),
    _id: stableShortId(`node:${path}`),
  });
  n.path = path;
  if (parent) parent.fields._children.push(n);
  return n;
}

function component(owner, type, props) {
  const index = owner.fields._components.length;
  const c = new SObj(type, {
    _name: '',
    _objFlags: 0,
    __editorExtras__: {},
    node: owner,
    _enabled: true,
    __prefab: null,
    ...props,
    _id: stableShortId(`component:${owner.path}:${type}:${index}`),
  });
  owner.fields._components.push(c);
  return c;
}

// ---- engine components, with the fields Creator 3.8 writes -----------------------------------

const uiTransform = (n, w, h, ax = 0.5, ay = 0.5) => component(n, 'cc.UITransform', { _contentSize: size(w, h), _anchorPoint: vec2(ax, ay) });

function widget(n, alignFlags, margins = {}) {
  return component(n, 'cc.Widget', {
    _alignFlags: alignFlags,
    _target: null,
    _left: margins.left || 0,
    _right: margins.right || 0,
    _top: margins.top || 0,
    _bottom: margins.bottom || 0,
    _horizontalCenter: 0,
    _verticalCenter: 0,
    _isAbsLeft: true,
    _isAbsRight: true,
    _isAbsTop: true,
    _isAbsBottom: true,
    _isAbsHorizontalCenter: true,
    _isAbsVerticalCenter: true,
    _originalWidth: 0,
    _originalHeight: 0,
    _alignMode: 2,
    _lockFlags: 0,
  });
}

function spriteComp(n, frame, tint = color(255, 255, 255), type = 1) {
  return component(n, 'cc.Sprite', {
    _customMaterial: null,
    _srcBlendFactor: 2,
    _dstBlendFactor: 4,
    _color: tint,
    _spriteFrame: sprite(frame),
    _type: type,
    _fillType: 0,
    _sizeMode: 0,
    _fillCenter: vec2(0, 0),
    _fillStart: 0,
    _fillRange: 0,
    _isTrimmedMode: true,
    _useGrayscale: false,
    _atlas: null,
  });
}

function label(n, text, { fontSize = 24, lineHeight, tint = color(255, 255, 255), hAlign = 1, vAlign = 1, overflow = 0, wrap = true, bold = false, italic = false } = {}) {
  return component(n, 'cc.Label', {
    _customMaterial: null,
    _srcBlendFactor: 2,
    _dstBlendFactor: 4,
    _color: tint,
    _string: text,
    _horizontalAlign: hAlign,
    _verticalAlign: vAlign,
    _actualFontSize: fontSize,
    _fontSize: fontSize,
    _fontFamily: 'Arial',
    _lineHeight: lineHeight || Math.round(fontSize * 1.25),
    _overflow: overflow,
    _enableWrapText: wrap,
    _font: null,
    _isSystemFontUsed: true,
    _spacingX: 0,
    _isItalic: italic,
    _isBold: bold,
    _isUnderline: false,
    _underlineHeight: 2,
    _cacheMode: 0,
  });
}

const clickEvent = (target, componentType, handler, customEventData = '') =>
  new SObj('cc.ClickEvent', { target, component: '', _componentId: componentType, handler, customEventData });

/** A button: node + UITransform + Sprite + Button, and a child Label. */
function button(path, parent, position, w, h, text, events, { active = true, fontSize = 20 } = {}) {
  const n = node(path, { parent, position, active });
  const textNode = node(`${path}/Label`, { parent: n });
  uiTransform(textNode, w - 16, h);
  const text_ = label(textNode, text, { fontSize, tint: color(30, 20, 10), overflow: 2, wrap: false });
  uiTransform(n, w, h);
  spriteComp(n, 'default_btn_normal', color(235, 215, 170));
  const b = component(n, 'cc.Button', {
    clickEvents: events,
    _interactable: true,
    _transition: 3,
    _normalColor: color(214, 214, 214),
    _hoverColor: color(211, 211, 211),
    _pressedColor: color(255, 255, 255),
    _disabledColor: color(124, 124, 124),
    _normalSprite: sprite('default_btn_normal'),
    _hoverSprite: sprite('default_btn_pressed'),
    _pressedSprite: sprite('default_btn_pressed'),
    _disabledSprite: sprite('default_btn_disabled'),
    _duration: 0.1,
    _zoomScale: 1.05,
    _target: n,
  });
  return { node: n, button: b, label: text_ };
}

function textNode(path, parent, position, w, h, text, options) {
  const n = node(path, { parent, position });
  uiTransform(n, w, h, options && options.anchorX !== undefined ? options.anchorX : 0.5, 0.5);
  return label(n, text, options);
}

// ---- the scene --------------------------------------------------------------------------------

const EVENING = [
  "Evening! What's warm tonight?",
  'Two ales, please.',
  "How's business these days?",
  'You pour a fine ale, Mira. Thank you.',
  'Heard any rumours lately?',
  'Goodnight, Mira!',
];

const TYPES = {
  NPCComponent: ext('NPCComponent'),
  DecisionComponent: ext('DecisionComponent'),
  WorldStateStore: ext('WorldStateStore'),
  NanoStatus: ext('NanoStatus'),
  TavernGame: own('TavernGame'),
  DialogueUI: own('DialogueUI'),
  GuardBrain: own('GuardBrain'),
  DownloadBar: own('DownloadBar'),
  ScriptedEvening: own('ScriptedEvening'),
};

const scene = new SObj('cc.Scene', {
  _name: 'tavern',
  _objFlags: 0,
  __editorExtras__: {},
  _parent: null,
  _children: [],
  _active: true,
  _components: [],
  _prefab: new SObj('cc.PrefabInfo', { root: null, asset: null, fileId: SCENE_UUID, instance: null, targetOverrides: null }),
  _lpos: vec3(),
  _lrot: { __type__: 'cc.Quat', x: 0, y: 0, z: 0, w: 1 },
  _lscale: vec3(1, 1, 1),
  _mobility: 0,
  _layer: LAYER_DEFAULT,
  _euler: vec3(),
  autoReleaseAssets: false,
  _globals: null, // set below, after the nodes, as Creator writes it
  _id: SCENE_UUID,
});
scene.path = 'tavern';

// World and game logic: plain nodes at the scene root.
const worldNode = node('World', { parent: scene, layer: LAYER_DEFAULT });
const worldStore = component(worldNode, TYPES.WorldStateStore, {
  initialState: asset(TAVERN_WORLD, 'cc.JsonAsset'),
  initialJson: '',
});

// The UI.
const canvas = node('Canvas', { parent: scene, position: vec3(640, 360, 0) });
const cameraNode = node('Canvas/Camera', { parent: canvas, position: vec3(0, 0, 1000), layer: LAYER_DEFAULT });
const camera = component(cameraNode, 'cc.Camera', {
  _projection: 0,
  _priority: 1073741824,
  _fov: 45,
  _fovAxis: 0,
  _orthoHeight: 360,
  _near: 1,
  _far: 2000,
  _color: color(0, 0, 0),
  _depth: 1,
  _stencil: 0,
  _clearFlags: 7,
  _rect: { __type__: 'cc.Rect', x: 0, y: 0, width: 1, height: 1 },
  _aperture: 19,
  _shutter: 7,
  _iso: 0,
  _screenScale: 1,
  _visibility: 41943040,
  _targetTexture: null,
  _postProcess: null,
  _usePostProcess: false,
  _cameraType: -1,
  _trackingType: 0,
});

const background = node('Canvas/Background', { parent: canvas });
uiTransform(background, 1280, 720);
spriteComp(background, 'default_sprite_splash', color(48, 32, 22), 0);
widget(background, 45);

textNode('Canvas/Title', canvas, vec3(0, 322, 0), 900, 50, 'The Crooked Lantern', { fontSize: 36, bold: true, tint: color(255, 214, 140) });
const hud = textNode('Canvas/Hud', canvas, vec3(0, 284, 0), 900, 30, 'Gold: 20    Carrying: nothing', { fontSize: 20, tint: color(230, 230, 200) });

// Mira.
const mira = node('Canvas/Mira', { parent: canvas, position: vec3(-400, 170, 0) });
const miraTag = node('Canvas/Mira/Name', { parent: mira, position: vec3(0, -60, 0) });
uiTransform(miraTag, 180, 30);
label(miraTag, 'Mira, innkeeper', { fontSize: 18, tint: color(40, 25, 15) });
uiTransform(mira, 160, 160);
spriteComp(mira, 'default_sprite_splash', color(196, 120, 80), 0);
const checkMenu = new SObj('oam.ToolDeclaration', {
  name: 'check_menu',
  description: "Lists tonight's food and drink with prices in gold.",
  parametersSchema: '',
  timeoutMs: 0,
});
const takeOrder = new SObj('oam.ToolDeclaration', {
  name: 'take_order',
  description: "Serves food or drink to the player and takes the gold from the player's purse.",
  parametersSchema: JSON.stringify({
    type: 'object',
    properties: {
      item: { type: 'string', enum: ['ale', 'stew', 'bread', 'cider'], description: 'what the player ordered' },
      quantity: { type: 'integer', minimum: 1, maximum: 10, description: 'how many' },
    },
    required: ['item', 'quantity'],
  }),
  timeoutMs: 0,
});
const miraNpc = component(mira, TYPES.NPCComponent, {
  persona: asset(MIRA_PERSONA, 'cc.JsonAsset'),
  worldStore,
  worldReadable: [''],
  worldWritable: [],
  worldContextPaths: ['player.gold', 'time'],
  groundingTool: '',
  replyFormat: 0,
  rememberFacts: true,
  trackRelationship: true,
  // Mira tells the player her secret once she likes them (the demo does the same).
  secretsUnlockAt: 10,
  secretsAlwaysGuarded: false,
  emotions: [],
  playerOptionCount: 0,
  canEndConversation: true,
  fallbackLines: [],
  externalTools: [checkMenu, takeOrder],
  extraInstructions: '',
  externalToolTimeoutMs: 30000,
  toolTimeoutMs: 10000,
  priority: 100,
});

// The dialogue box.
const panel = node('Canvas/Dialogue', { parent: canvas, position: vec3(-220, -150, 0) });
const speaker = textNode('Canvas/Dialogue/Speaker', panel, vec3(-390, 170, 0), 200, 34, 'Mira', { fontSize: 26, bold: true, hAlign: 0, anchorX: 0, tint: color(255, 214, 140) });
const emotion = textNode('Canvas/Dialogue/Emotion', panel, vec3(-180, 170, 0), 240, 34, '(neutral)', { fontSize: 20, italic: true, hAlign: 0, anchorX: 0, tint: color(200, 190, 170) });
const line = textNode('Canvas/Dialogue/Line', panel, vec3(0, 95, 0), 780, 100, 'Welcome to the Crooked Lantern, traveller!', { fontSize: 24, hAlign: 0, vAlign: 0, overflow: 3 });
const player = textNode('Canvas/Dialogue/Player', panel, vec3(0, 30, 0), 780, 30, '', { fontSize: 18, italic: true, hAlign: 0, overflow: 2, tint: color(190, 200, 220) });
const optionButtons = [];
const optionLabels = [];
const dialogueEvents = []; // filled once the DialogueUI component exists
for (let i = 0; i < 3; i++) {
  const events = [];
  dialogueEvents.push({ events, handler: 'onOptionClicked', data: String(i) });
  const b = button(`Canvas/Dialogue/Option${i}`, panel, vec3(0, -25 - 45 * i, 0), 760, 38, EVENING[i], events);
  optionButtons.push(b.button);
  optionLabels.push(b.label);
}
const inputNode = node('Canvas/Dialogue/Input', { parent: panel, position: vec3(-70, -170, 0) });
const inputText = node('Canvas/Dialogue/Input/TEXT_LABEL', { parent: inputNode, position: vec3(-288, 18, 0), active: false });
uiTransform(inputText, 576, 36, 0, 1);
const inputTextLabel = label(inputText, '', { fontSize: 20, hAlign: 0, vAlign: 1, overflow: 1, wrap: false, tint: color(30, 20, 10) });
const inputPlaceholder = node('Canvas/Dialogue/Input/PLACEHOLDER_LABEL', { parent: inputNode, position: vec3(-288, 18, 0) });
uiTransform(inputPlaceholder, 576, 36, 0, 1);
const inputPlaceholderLabel = label(inputPlaceholder, 'Or type something to Mira…', { fontSize: 20, hAlign: 0, vAlign: 1, overflow: 1, wrap: false, tint: color(215, 205, 190) });
uiTransform(inputNode, 600, 40);
spriteComp(inputNode, 'default_editbox_bg');
const returnEvents = [];
component(inputNode, 'cc.EditBox', {
  editingDidBegan: [],
  textChanged: [],
  editingDidEnded: [],
  editingReturn: returnEvents,
  _textLabel: inputTextLabel,
  _placeholderLabel: inputPlaceholderLabel,
  _returnType: 0,
  _string: '',
  _tabIndex: 0,
  _backgroundImage: sprite('default_editbox_bg'),
  _inputFlag: 5,
  _inputMode: 6,
  _maxLength: 120,
});
const sendEvents = [];
button('Canvas/Dialogue/Send', panel, vec3(320, -170, 0), 130, 40, 'Say it', sendEvents);
uiTransform(panel, 820, 400);
spriteComp(panel, 'default_sprite_splash', color(24, 16, 10, 220), 0);
const dialogueUI = component(panel, TYPES.DialogueUI, {
  npc: miraNpc,
  speakerLabel: speaker,
  emotionLabel: emotion,
  lineLabel: line,
  playerLabel: player,
  optionButtons,
  optionLabels,
  input: null, // set below
  presetLines: EVENING,
});
dialogueUI.fields.input = inputNode.fields._components.find((c) => c.type === 'cc.EditBox');
for (const e of dialogueEvents) e.events.push(clickEvent(panel, TYPES.DialogueUI, e.handler, e.data));
sendEvents.push(clickEvent(panel, TYPES.DialogueUI, 'onSendClicked'));
returnEvents.push(clickEvent(panel, TYPES.DialogueUI, 'onSendClicked'));

// The gate guard.
const guard = node('Canvas/Guard', { parent: canvas, position: vec3(420, 170, 0) });
const guardTag = node('Canvas/Guard/Name', { parent: guard, position: vec3(0, -60, 0) });
uiTransform(guardTag, 180, 30);
label(guardTag, 'Brann, gate guard', { fontSize: 18, tint: color(230, 230, 240) });
uiTransform(guard, 160, 160);
spriteComp(guard, 'default_sprite_splash', color(70, 84, 110), 0);
const guardOptions = [
  ['let_in', 'Step aside and let the traveller into the tavern.'],
  ['warn', 'Block the door and warn the traveller to behave.'],
  ['alarm', 'Ring the bell and call for help: the traveller is dangerous.'],
].map(([id, description]) => new SObj('oam.DecisionOptionEntry', { id, description }));
component(guard, TYPES.DecisionComponent, {
  options: guardOptions,
  actor: asset(GUARD_PERSONA, 'cc.JsonAsset'),
  fallbackOption: 'warn',
  timeBudgetMs: 5000,
  withReason: true,
  priority: 50,
});
const guardStatus = textNode('Canvas/GuardStatus', canvas, vec3(420, 55, 0), 420, 60, 'Brann watches the gate.', { fontSize: 18, overflow: 3, tint: color(220, 220, 230) });
component(guard, TYPES.GuardBrain, {
  world: worldStore,
  statusLabel: guardStatus,
  defaultSituation: 'A traveller walks up to the gate calmly, hands empty.',
});
const approaches = [
  ['Walk up calmly', 'A traveller walks up to the gate calmly, hands empty.'],
  ['Walk up with a drawn sword', 'A traveller walks up to the gate with a drawn sword.'],
  ['Stagger up singing', 'A traveller staggers up to the gate, singing loudly.'],
];
approaches.forEach(([text, situation], i) => {
  button(`Canvas/Approach${i}`, canvas, vec3(420, -10 - 48 * i, 0), 360, 40, text, [clickEvent(guard, TYPES.GuardBrain, 'onApproachClicked', situation)]);
});

// The on-device model's status and download bar.
const status = node('Canvas/ModelStatus', { parent: canvas, position: vec3(420, -250, 0) });
const barNode = node('Canvas/ModelStatus/ProgressBar', { parent: status, position: vec3(0, 25, 0) });
const fill = node('Canvas/ModelStatus/ProgressBar/Bar', { parent: barNode, position: vec3(-180, 0, 0) });
uiTransform(fill, 0, 16, 0, 0.5);
const fillSprite = spriteComp(fill, 'default_progressbar', color(120, 200, 120));
uiTransform(barNode, 360, 16);
spriteComp(barNode, 'default_progressbar_bg');
const bar = component(barNode, 'cc.ProgressBar', { _barSprite: fillSprite, _mode: 0, _totalLength: 360, _progress: 0, _reverse: false });
const message = textNode('Canvas/ModelStatus/Message', status, vec3(0, -10, 0), 420, 44, 'Checking the on-device AI model…', { fontSize: 16, overflow: 3, tint: color(220, 220, 200) });
const downloadEvents = [];
const download = button('Canvas/ModelStatus/Download', status, vec3(0, -60, 0), 200, 36, 'Download model', downloadEvents, { active: false, fontSize: 18 });
uiTransform(status, 420, 140);
component(status, TYPES.NanoStatus, { refreshOnLoad: true, autoDownload: false, status: 'unknown', progress: 0, message: '' });
component(status, TYPES.DownloadBar, { bar, messageLabel: message, downloadButton: download.node, hideWhenReady: true });
downloadEvents.push(clickEvent(status, TYPES.DownloadBar, 'onDownloadClicked'));

uiTransform(canvas, 1280, 720);
component(canvas, 'cc.Canvas', { _cameraComponent: camera, _alignCanvasWithScreen: true });
widget(canvas, 45);

// The game: scripted previews first, then the tavern's rules.
const game = node('Game', { parent: scene, layer: LAYER_DEFAULT });
component(game, TYPES.ScriptedEvening, { chunkDelayMs: 25 });
component(game, TYPES.TavernGame, { mira: miraNpc, world: worldStore, hudLabel: hud });

scene.fields._globals = new SObj('cc.SceneGlobals', {
  ambient: new SObj('cc.AmbientInfo', {
    _skyColorHDR: { __type__: 'cc.Vec4', x: 0.2, y: 0.5, z: 0.8, w: 0.520833125 },
    _skyColor: { __type__: 'cc.Vec4', x: 0.2, y: 0.5, z: 0.8, w: 0.520833125 },
    _skyIllumHDR: 20000,
    _skyIllum: 20000,
    _groundAlbedoHDR: { __type__: 'cc.Vec4', x: 0.2, y: 0.2, z: 0.2, w: 1 },
    _groundAlbedo: { __type__: 'cc.Vec4', x: 0.2, y: 0.2, z: 0.2, w: 1 },
    _skyColorLDR: { __type__: 'cc.Vec4', x: 0.452588, y: 0.607642, z: 0.755699, w: 0 },
    _skyIllumLDR: 0.8,
    _groundAlbedoLDR: { __type__: 'cc.Vec4', x: 0.618555, y: 0.577848, z: 0.544564, w: 0 },
  }),
  shadows: new SObj('cc.ShadowsInfo', {
    _enabled: false,
    _type: 0,
    _normal: vec3(0, 1, 0),
    _distance: 0,
    _shadowColor: color(76, 76, 76),
    _maxReceived: 4,
    _size: vec2(1024, 1024),
  }),
  _skybox: new SObj('cc.SkyboxInfo', {
    _envLightingType: 0,
    _envmapHDR: null,
    _envmap: null,
    _envmapLDR: null,
    _diffuseMapHDR: null,
    _diffuseMapLDR: null,
    _enabled: false,
    _useHDR: true,
    _editableMaterial: null,
    _reflectionHDR: null,
    _reflectionLDR: null,
    _rotationAngle: 0,
  }),
  fog: new SObj('cc.FogInfo', {
    _type: 0,
    _fogColor: color(200, 200, 200),
    _enabled: false,
    _fogDensity: 0.3,
    _fogStart: 0.5,
    _fogEnd: 300,
    _fogAtten: 5,
    _fogTop: 1.5,
    _fogRange: 1.2,
    _accurate: false,
  }),
  octree: new SObj('cc.OctreeInfo', { _enabled: false, _minPos: vec3(-1024, -1024, -1024), _maxPos: vec3(1024, 1024, 1024), _depth: 8 }),
  skin: new SObj('cc.SkinInfo', { _enabled: false, _blurRadius: 0.01, _sssIntensity: 3 }),
  lightProbeInfo: new SObj('cc.LightProbeInfo', {
    _giScale: 1,
    _giSamples: 1024,
    _bounces: 2,
    _reduceRinging: 0,
    _showProbe: true,
    _showWireframe: true,
    _showConvex: false,
    _data: null,
    _lightProbeSphereVolume: 1,
  }),
  bakedWithStationaryMainLight: false,
  bakedWithHighpLightmap: false,
});

// ---- serialize: depth-first, each object gets its slot when first reached --------------------

const sceneAsset = new SObj('cc.SceneAsset', { _name: 'tavern', _objFlags: 0, __editorExtras__: {}, _native: '', scene });

function serialize(root) {
  const out = [];
  const ids = new Map();
  const visit = (value) => {
    if (value instanceof SObj) {
      if (ids.has(value)) return { __id__: ids.get(value) };
      const id = out.length;
      ids.set(value, id);
      const entry = { __type__: value.type };
      out.push(entry);
      for (const [key, field] of Object.entries(value.fields)) entry[key] = visit(field);
      return { __id__: id };
    }
    if (Array.isArray(value)) return value.map(visit);
    if (value && typeof value === 'object') {
      const copy = {};
      for (const [key, field] of Object.entries(value)) copy[key] = visit(field);
      return copy;
    }
    return value;
  };
  visit(root);
  return out;
}

const target = join(sample, 'assets', 'scenes', 'tavern.scene');
writeFileSync(target, `${JSON.stringify(serialize(sceneAsset), null, 2)}\n`);
console.log(`wrote ${target}`);
