/**
 * The module 'cc' for the real-engine suite: the engine v3.8.5's own exports (base, 2d, ui), the
 * same feature units the packed scripts import (scripts/creator/pipeline.mjs FEATURE_UNITS).
 * The suite's jest config maps 'cc' here; the files sit in <engine>/tests/oam-cocos/harness/.
 */
export * from '../../../exports/base';
export * from '../../../exports/2d';
export * from '../../../exports/ui';
