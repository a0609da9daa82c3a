package com.oamcocos.nano.android

import com.cocos.lib.JsbBridge
import com.cocos.lib.JsbBridgeWrapper
import com.oamcocos.nano.core.BridgeMessages

/**
 * The thin Cocos adapter: one jsbBridgeWrapper event (never JsbBridge.setCallback, which
 * would take the raw channel from every other plugin).
 *
 * The listener is added ONCE per process, from OamNanoInitializer's provider, before any
 * activity (and so before Cocos's game thread) exists, and it is never removed: the wrapper's
 * listener map is a plain HashMap/ArrayList iterated on the game thread, and changing it from
 * another thread while the engine runs can throw ConcurrentModificationException there. What
 * the listener forwards to is switched through a volatile field instead.
 */
object CocosBridgeTransport {
    @Volatile private var target: ((String?) -> Unit)? = null
    @Volatile private var installed = false
    /** The wrapper's own JsbBridge callback, read right after the wrapper installed it. */
    @Volatile private var wrapperCallback: JsbBridge.ICallback? = null

    /** Adds the one listener (first call only) and routes what it hears to [onMessage]. */
    @Synchronized
    fun install(onMessage: (String?) -> Unit) {
        target = onMessage
        if (installed) return
        val wrapper = JsbBridgeWrapper.getInstance() // its constructor calls JsbBridge.setCallback
        wrapperCallback = JsbBridgeCallback.current()
        wrapper.addScriptEventListener(BridgeMessages.EVENT) { arg -> target?.invoke(arg) }
        installed = true
    }

    /** Callable from any thread: Cocos queues delivery onto the game thread. Only BridgeGate calls it. */
    fun send(message: String) {
        JsbBridgeWrapper.getInstance().dispatchEventToScript(BridgeMessages.EVENT, message)
    }

    /**
     * Who holds JsbBridge's single Java callback now: "jsbBridgeWrapper" (events reach us),
     * "replaced" (game code called JsbBridge.setCallback after the wrapper: no wrapper event,
     * ours included, arrives any more), "none", or "unknown" (the field could not be read).
     */
    fun callbackOwner(): String {
        if (!installed) return "not-installed"
        val current = JsbBridgeCallback.read() ?: return "unknown"
        val cb = current.value ?: return "none"
        return if (cb === wrapperCallback) "jsbBridgeWrapper" else "replaced"
    }

    /** The class of the callback that replaced the wrapper's, for the message that names it. */
    fun callbackClassName(): String? = JsbBridgeCallback.read()?.value?.javaClass?.name
}

/** Reads JsbBridge's private static `callback` (kept by consumer-rules.pro). */
internal object JsbBridgeCallback {
    class Read(val value: JsbBridge.ICallback?)

    fun read(): Read? = try {
        val field = JsbBridge::class.java.getDeclaredField("callback")
        field.isAccessible = true
        Read(field.get(null) as JsbBridge.ICallback?)
    } catch (_: Throwable) {
        null
    }

    fun current(): JsbBridge.ICallback? = read()?.value
}
