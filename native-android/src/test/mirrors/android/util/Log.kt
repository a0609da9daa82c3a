// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (Android SDK) so the module compiles on a plain JVM. Only the members the module uses.
package android.util

object Log {
    /** Java: static int e(String tag, String msg). */
    @JvmStatic fun e(tag: String, msg: String): Int = throw UnsupportedOperationException("compile-only Android mirror")
}
