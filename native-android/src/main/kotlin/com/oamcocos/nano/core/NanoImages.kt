package com.oamcocos.nano.core

import org.json.JSONArray
import org.json.JSONObject
import java.util.Base64

/**
 * One picture for ML Kit: the encoded file (PNG or JPEG) as JS sent it. The Android side
 * decodes it with BitmapFactory into ML Kit's `ImagePart`; everything before that is plain
 * Kotlin, checked here.
 */
class NanoImage(val bytes: ByteArray, val mimeType: String, val width: Int? = null, val height: Int? = null) {
    override fun toString(): String = "NanoImage($mimeType, ${bytes.size} bytes)"
}

/** Reads `generate`'s `images`: at most one (ML Kit takes a single image per request). */
object NanoImages {
    /** The largest encoded file taken, as on the TypeScript side. */
    const val MAX_BYTES = 3 * 1024 * 1024
    val MIME_TYPES: Set<String> = setOf("image/png", "image/jpeg")

    fun parse(params: JSONObject): NanoImage? {
        if (!params.has("images") || params.isNull("images")) return null
        val list = params.opt("images") as? JSONArray ?: throw BridgeMessages.invalidParams("'images' must be a list")
        if (list.length() == 0) return null
        if (list.length() > 1) {
            throw BridgeMessages.invalidParams("Gemini Nano takes one image per request (ML Kit), got ${list.length()}")
        }
        val item = list.opt(0) as? JSONObject ?: throw BridgeMessages.invalidParams("'images[0]' must be an object")
        val mimeType = item.optStringOrNull("mimeType")
        if (mimeType == null || mimeType !in MIME_TYPES) {
            throw BridgeMessages.invalidParams("'images[0].mimeType' must be image/png or image/jpeg, got ${mimeType ?: "nothing"}")
        }
        val data = item.optStringOrNull("data") ?: throw BridgeMessages.invalidParams("'images[0].data' must be the image as base64")
        val bytes = try {
            Base64.getDecoder().decode(data)
        } catch (_: IllegalArgumentException) {
            throw BridgeMessages.invalidParams("'images[0].data' is not base64")
        }
        if (bytes.isEmpty()) throw BridgeMessages.invalidParams("'images[0].data' is empty")
        if (bytes.size > MAX_BYTES) throw BridgeMessages.invalidParams("'images[0]' is ${bytes.size} bytes; the limit is $MAX_BYTES")
        return NanoImage(bytes, mimeType, item.optNumberOrNull("width")?.toInt(), item.optNumberOrNull("height")?.toInt())
    }
}
