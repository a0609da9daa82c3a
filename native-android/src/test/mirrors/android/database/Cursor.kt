// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package android.database

interface Cursor
