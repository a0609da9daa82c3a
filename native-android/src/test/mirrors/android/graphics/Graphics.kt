// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (Android SDK) so the module compiles on a plain JVM. Only the members the module uses.
package android.graphics

/** Java: public final class Bitmap (getWidth(), getHeight()). */
class Bitmap private constructor() {
    val width: Int get() = throw UnsupportedOperationException("compile-only Android mirror")
    val height: Int get() = throw UnsupportedOperationException("compile-only Android mirror")
}

/** Java: public class BitmapFactory with static decoders. */
object BitmapFactory {
    /** Java: static @Nullable Bitmap decodeByteArray(byte[] data, int offset, int length): null when the bytes are no image it can decode. */
    @JvmStatic fun decodeByteArray(data: ByteArray, offset: Int, length: Int): Bitmap? =
        throw UnsupportedOperationException("compile-only Android mirror")
}
