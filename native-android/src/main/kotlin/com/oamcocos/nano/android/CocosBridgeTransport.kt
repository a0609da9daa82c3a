package com.oamcocos.nano.android

import com.cocos.lib.JsbBridgeWrapper
import com.oamcocos.nano.core.BridgeMessages

/**
 * The thin Cocos adapter: one jsbBridgeWrapper event (never JsbBridge.setCallback, which
 * would take the raw channel from every other plugin). Listeners run on the game thread.
 */
class CocosBridgeTransport(private val event: String = BridgeMessages.EVENT) {
    private var listener: JsbBridgeWrapper.OnScriptEventListener? = null

    fun start(onMessage: (String?) -> Unit) {
        stop()
        val l = JsbBridgeWrapper.OnScriptEventListener { arg -> onMessage(arg) }
        JsbBridgeWrapper.getInstance().addScriptEventListener(event, l)
        listener = l
    }

    /** Callable from any thread: Cocos queues delivery onto the game thread. */
    fun send(message: String) {
        JsbBridgeWrapper.getInstance().dispatchEventToScript(event, message)
    }

    fun stop() {
        listener?.let { JsbBridgeWrapper.getInstance().removeScriptEventListener(event, it) }
        listener = null
    }
}
