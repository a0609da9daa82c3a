package com.oamcocos.nano.android

import com.oamcocos.nano.core.BridgeHost

/**
 * Activity events, as they matter to the bridge (kept free of android.* so the JVM tests drive
 * it directly):
 * - the engine lives while a Cocos activity (a subclass of com.cocos.lib.CocosActivity) lives;
 *   when one is being destroyed, finishing or not (reclaimed, a configuration change), the
 *   host's gate closes at once and the work of its JS context is cancelled; the ML Kit client
 *   is released only when the activity is finishing;
 * - the app is visible while any of its activities is started: paused but visible (a
 *   permission dialog or a billing sheet on top) still counts, ML Kit decides from there.
 */
class EngineLifecycle {
    @Volatile var host: BridgeHost? = null
    @Volatile private var startedCount = 0
    private var engineActivities = 0
    /** Destroy callbacks seen, per activity token: pre-destroy and destroyed both report one destroy. */
    private val gone = java.util.Collections.newSetFromMap(java.util.WeakHashMap<Any, Boolean>())

    fun isVisible(): Boolean = startedCount > 0

    @Synchronized fun created(engine: Boolean) {
        if (engine) engineActivities++
    }

    @Synchronized fun started() { startedCount++ }

    @Synchronized fun stopped() { if (startedCount > 0) startedCount-- }

    /** [token] tells the two destroy callbacks of one activity apart from another activity's. */
    @Synchronized fun destroying(engine: Boolean, finishing: Boolean, token: Any) {
        if (!engine || !gone.add(token)) return
        if (engineActivities > 0) engineActivities--
        host?.onEngineGone(releaseClient = finishing && engineActivities == 0)
    }

    companion object {
        const val COCOS_ACTIVITY = "com.cocos.lib.CocosActivity"

        /** True for CocosActivity and its subclasses (AppActivity, InstantActivity). By name: see the README. */
        fun isEngineActivity(type: Class<*>, engineClass: String = COCOS_ACTIVITY): Boolean {
            var c: Class<*>? = type
            while (c != null) {
                if (c.name == engineClass) return true
                c = c.superclass
            }
            return false
        }
    }
}
