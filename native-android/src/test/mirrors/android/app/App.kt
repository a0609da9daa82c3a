// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package android.app

import android.content.Context
import android.os.Bundle

open class Activity : Context() {
    /** Java: isFinishing(). */
    open val isFinishing: Boolean get() = false
    /** Java: isChangingConfigurations(). */
    open val isChangingConfigurations: Boolean get() = false
}

open class Application : Context() {
    fun registerActivityLifecycleCallbacks(callback: ActivityLifecycleCallbacks): Unit = throw UnsupportedOperationException("compile-only Android mirror")

    interface ActivityLifecycleCallbacks {
        fun onActivityCreated(activity: Activity, savedInstanceState: Bundle?)
        fun onActivityStarted(activity: Activity)
        fun onActivityResumed(activity: Activity)
        fun onActivityPaused(activity: Activity)
        fun onActivityStopped(activity: Activity)
        fun onActivitySaveInstanceState(activity: Activity, outState: Bundle)
        fun onActivityDestroyed(activity: Activity)
        /** API 29+, a default method in the framework. */
        fun onActivityPreDestroyed(activity: Activity) {}
    }
}
