package com.oamcocos.nano.android

import android.app.Activity
import android.app.Application
import android.content.ContentProvider
import android.content.ContentValues
import android.database.Cursor
import android.net.Uri
import android.os.Bundle
import android.util.Log
import com.oamcocos.nano.core.BridgeHost
import kotlinx.coroutines.asCoroutineDispatcher
import java.util.concurrent.Executors

/**
 * Starts the bridge with no edit to the game's AppActivity: Android creates this provider
 * (declared in this library's manifest, merged into the app) before the Application's
 * onCreate and before any Activity, so before Cocos's game thread exists. It then:
 * - adds the one jsbBridgeWrapper listener for the process (never removed; see
 *   CocosBridgeTransport) and creates the BridgeHost on its own thread;
 * - follows the activities through ActivityLifecycleCallbacks ([EngineLifecycle]).
 * It answers no queries; it exists only for its onCreate.
 */
class OamNanoInitializer : ContentProvider() {
    override fun onCreate(): Boolean {
        val app = context?.applicationContext as? Application ?: return false
        val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "oam-nano").apply { isDaemon = true } }
        val lifecycle = EngineLifecycle()
        val host = BridgeHost(
            clientFactory = { MlKitNanoClient.create(it) },
            send = CocosBridgeTransport::send,
            dispatcher = executor.asCoroutineDispatcher(),
            isForeground = lifecycle::isVisible,
        )
        lifecycle.host = host
        CocosBridgeTransport.install(host::onMessage)
        app.registerActivityLifecycleCallbacks(AndroidCallbacks(lifecycle))
        return true
    }

    override fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor? = null
    override fun getType(uri: Uri): String? = null
    override fun insert(uri: Uri, values: ContentValues?): Uri? = null
    override fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int = 0
    override fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int = 0

    /** The Android callbacks, reduced to what [EngineLifecycle] needs. */
    private class AndroidCallbacks(private val lifecycle: EngineLifecycle) : Application.ActivityLifecycleCallbacks {
        override fun onActivityCreated(activity: Activity, savedInstanceState: Bundle?) {
            lifecycle.created(EngineLifecycle.isEngineActivity(activity.javaClass))
            warnIfCallbackTaken()
        }

        override fun onActivityStarted(activity: Activity) = lifecycle.started()
        override fun onActivityResumed(activity: Activity) = warnIfCallbackTaken()
        override fun onActivityPaused(activity: Activity) = Unit
        override fun onActivityStopped(activity: Activity) {
            lifecycle.stopped()
            // Finishing or being recreated for a configuration change: onDestroy comes next. Closing
            // the gate here is earlier than any destroy callback, also on API 26-28.
            if (activity.isFinishing || activity.isChangingConfigurations) {
                lifecycle.destroying(EngineLifecycle.isEngineActivity(activity.javaClass), activity.isFinishing, activity)
            }
        }
        override fun onActivitySaveInstanceState(activity: Activity, outState: Bundle) = Unit

        // API 29+: called before the activity's onDestroy, so before Cocos tears the engine down.
        override fun onActivityPreDestroyed(activity: Activity) =
            lifecycle.destroying(EngineLifecycle.isEngineActivity(activity.javaClass), activity.isFinishing, activity)

        // API 26-28 have only this one, called from inside onDestroy (docs/bridge-protocol.md); an
        // activity finishing or changing configurations was already handled in onActivityStopped.
        override fun onActivityDestroyed(activity: Activity) =
            lifecycle.destroying(EngineLifecycle.isEngineActivity(activity.javaClass), activity.isFinishing, activity)

        private var warned = false

        private fun warnIfCallbackTaken() {
            if (warned || CocosBridgeTransport.callbackOwner() != "replaced") return
            warned = true
            Log.e("oam-cocos", "JsbBridge.setCallback was called by ${CocosBridgeTransport.callbackClassName()} after JsbBridgeWrapper " +
                "installed its callback: no jsbBridgeWrapper event reaches Java any more, so Gemini Nano (oam-cocos) is cut off. " +
                "Use JsbBridgeWrapper.getInstance().addScriptEventListener(...) instead (see docs/bridge-protocol.md).")
        }
    }
}
