// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package android.content

import android.database.Cursor
import android.net.Uri

open class Context {
    /** Java: getApplicationContext(). */
    open val applicationContext: Context get() = throw UnsupportedOperationException("compile-only Android mirror")
}

class ContentValues

abstract class ContentProvider {
    /** Java: @Nullable getContext(). */
    val context: Context? get() = null
    abstract fun onCreate(): Boolean
    abstract fun query(uri: Uri, projection: Array<String>?, selection: String?, selectionArgs: Array<String>?, sortOrder: String?): Cursor?
    abstract fun getType(uri: Uri): String?
    abstract fun insert(uri: Uri, values: ContentValues?): Uri?
    abstract fun delete(uri: Uri, selection: String?, selectionArgs: Array<String>?): Int
    abstract fun update(uri: Uri, values: ContentValues?, selection: String?, selectionArgs: Array<String>?): Int
}
