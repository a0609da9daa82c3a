package com.oamcocos.nano

import com.cocos.lib.JsbBridge
import com.cocos.lib.JsbBridgeWrapper
import com.oamcocos.nano.android.CocosBridgeTransport
import com.oamcocos.nano.android.OamNanoProbe
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.Collections

/**
 * The Cocos adapter on the REAL com.cocos.lib.JsbBridge and JsbBridgeWrapper (compiled from the
 * engine v3.8.5 sources by test.sh). `callByScript` is what the engine's C++ calls when JS
 * sends (JavaScriptJavaBridge.cpp, callPlatformStringMethod); it is private, so it is reached
 * by reflection here.
 */
class CocosBridgeTest {
    private fun callByScript(event: String, arg: String) {
        val m = JsbBridge::class.java.getDeclaredMethod("callByScript", String::class.java, String::class.java)
        m.isAccessible = true
        m.invoke(null, event, arg)
    }

    private fun callbackField() = JsbBridge::class.java.getDeclaredField("callback").apply { isAccessible = true }

    @Test
    fun aTakeOverOfJsbBridgeSetCallbackCutsTheWrapperOffAndIsReportedByName() {
        val heard = Collections.synchronizedList(mutableListOf<String?>())
        CocosBridgeTransport.install { heard.add(it) }
        CocosBridgeTransport.install { heard.add(it) } // a second install only re-routes; one listener
        callByScript("oam-cocos", """{"jsonrpc":"2.0","method":"ping"}""")
        callByScript("someone-else", "x")
        assertEquals(listOf<String?>("""{"jsonrpc":"2.0","method":"ping"}"""), heard.toList())
        assertEquals("jsbBridgeWrapper", CocosBridgeTransport.callbackOwner())
        assertEquals("jsbBridgeWrapper", JSONObject(OamNanoProbe.describe()).getString("callback"))

        // What Cocos's docs show a game doing in AppActivity.onCreate:
        val saved = callbackField().get(null)
        class GameCallback : JsbBridge.ICallback { override fun onScript(arg0: String?, arg1: String?) = Unit }
        JsbBridge.setCallback(GameCallback())
        try {
            callByScript("oam-cocos", "lost")
            assertEquals("the wrapper (and so oam-cocos) hears nothing any more", 1, heard.size)
            val probe = JSONObject(OamNanoProbe.describe())
            assertEquals("replaced", probe.getString("callback"))
            assertTrue(probe.getString("callbackClass").endsWith("GameCallback"))
            assertEquals("oam-nano", probe.getString("module"))
            assertEquals(1, probe.getInt("protocol"))
        } finally {
            callbackField().set(null, saved)
        }
        // The coexisting pattern: a game's own event through the wrapper, beside oam-cocos.
        val mine = mutableListOf<String?>()
        JsbBridgeWrapper.getInstance().addScriptEventListener("my-game") { mine.add(it) }
        callByScript("my-game", "hello")
        callByScript("oam-cocos", "still here")
        assertEquals(listOf<String?>("hello"), mine)
        assertEquals("still here", heard.last())
        assertEquals("jsbBridgeWrapper", CocosBridgeTransport.callbackOwner())
    }
}
