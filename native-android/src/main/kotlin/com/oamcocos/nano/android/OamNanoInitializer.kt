package com.oamcocos.nano.android

import android.app.Activity
import android.app.Application
import android.content.ContentProvider
import android.content.ContentValues
import android.database.Cursor
import android.net.Uri
import android.os.Bundle
import com.oamcocos.nano.core.BridgeHost
import kotlinx.coroutines.ExecutorCoroutineDispatcher
import kotlinx.coroutines.asCoroutineDispatcher
import java.util.concurrent.Executors

/**
 * Starts the bridge with no edit to the game's AppActivity: Android creates this provider
 * (declared in this library's manifest, merged into the app) before any Activity, and it
 * follows activities through ActivityLifecycleCallbacks:
 * - first activity created → the host starts listening on the "oam-cocos" event;
 * - resumed/paused → foreground state (generation in the background is refused as rate_limited);
 * - last activity destroyed while finishing → the host closes the ML Kit client (on its own
 *   thread, after its work ended) and then the executor is shut down.
 * It answers no queries; it exists only for its onCreate.
 */
class OamNanoInitializer : ContentProvider() {
    override fun onCreate(): Boolean {
        val app = context?.applicationContext as? Application ?: return false
        app.registerActivityLifecycleCallbacks(Lifecycle())
        return true
    }

    override fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor? = null
    override fun getType(uri: Uri): String? = null
    override fun insert(uri: Uri, values: ContentValues?): Uri? = null
    override fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int = 0
    override fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int = 0

    private class Lifecycle : Application.ActivityLifecycleCallbacks {
        private var created = 0
        @Volatile private var resumed = 0
        private var host: BridgeHost? = null
        private var transport: CocosBridgeTransport? = null
        private var dispatcher: ExecutorCoroutineDispatcher? = null

        override fun onActivityCreated(activity: Activity, savedInstanceState: Bundle?) {
            created++
            if (host != null) return
            val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "oam-nano").apply { isDaemon = true } }
            val d = executor.asCoroutineDispatcher()
            val t = CocosBridgeTransport()
            val h = BridgeHost(clientFactory = { MlKitNanoClient.create(it) }, send = t::send, dispatcher = d, isForeground = { resumed > 0 })
            t.start(h::onMessage)
            dispatcher = d
            transport = t
            host = h
        }

        override fun onActivityResumed(activity: Activity) { resumed++ }
        override fun onActivityPaused(activity: Activity) { if (resumed > 0) resumed-- }
        override fun onActivityStarted(activity: Activity) = Unit
        override fun onActivityStopped(activity: Activity) = Unit
        override fun onActivitySaveInstanceState(activity: Activity, outState: Bundle) = Unit

        override fun onActivityDestroyed(activity: Activity) {
            if (created > 0) created--
            if (created > 0 || !activity.isFinishing) return
            transport?.stop()
            val h = host
            val d = dispatcher
            // The host closes the ML Kit client on its own thread after its coroutines ended;
            // only then is the executor shut down (earlier, their last steps would be rejected).
            if (h != null) h.close().invokeOnCompletion { d?.close() } else d?.close()
            transport = null
            host = null
            dispatcher = null
        }
    }
}
