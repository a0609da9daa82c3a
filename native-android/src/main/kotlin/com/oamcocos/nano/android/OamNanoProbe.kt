package com.oamcocos.nano.android

import com.oamcocos.nano.core.BridgeMessages
import org.json.JSONObject

/**
 * What JS asks when `ready` gets no answer, through Cocos's reflection bridge
 * (`native.reflection.callStaticMethod`, which does not go through JsbBridge's callback, so it
 * still works when that callback was taken over). If this class is missing, the module is not
 * in the APK (the build option was off, or this is the instant app, which has no Nano).
 * Kept by consumer-rules.pro.
 */
object OamNanoProbe {
    /** JSON: {"module":"oam-nano","protocol":1,"callback":"jsbBridgeWrapper"|"replaced"|"none"|..., "callbackClass"?: "..."} */
    @JvmStatic
    fun describe(): String {
        val owner = CocosBridgeTransport.callbackOwner()
        val out = JSONObject()
            .put("module", "oam-nano")
            .put("protocol", BridgeMessages.PROTOCOL_VERSION)
            .put("callback", owner)
        if (owner == "replaced") CocosBridgeTransport.callbackClassName()?.let { out.put("callbackClass", it) }
        return out.toString()
    }
}
