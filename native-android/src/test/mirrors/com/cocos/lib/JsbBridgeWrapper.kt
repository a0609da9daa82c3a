// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package com.cocos.lib

/** Mirror of Cocos 3.8's com.cocos.lib.JsbBridgeWrapper (a Java class). */
class JsbBridgeWrapper private constructor() {
    fun interface OnScriptEventListener {
        fun onScriptEvent(arg: String?)
    }

    fun addScriptEventListener(eventName: String, listener: OnScriptEventListener): Unit = mirror()
    fun removeScriptEventListener(eventName: String, listener: OnScriptEventListener): Boolean = mirror()
    fun removeAllListenersForEvent(eventName: String): Unit = mirror()
    fun removeAllListeners(): Unit = mirror()
    fun dispatchEventToScript(eventName: String, arg: String): Unit = mirror()
    fun dispatchEventToScript(eventName: String): Unit = mirror()

    companion object {
        @JvmStatic fun getInstance(): JsbBridgeWrapper = mirror()
        private fun mirror(): Nothing = throw UnsupportedOperationException("compile-only Cocos mirror")
    }
}
