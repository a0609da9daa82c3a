package com.oamcocos.nano

import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.Base64

/** Image input on the native side: what reaches ML Kit, and what is refused before it is asked. */
class ImageInputTest {
    private val model = JSONObject().put("baseModelName", "nano-v3").put("tokenLimit", 4000).put("systemPrompt", true).put("caching", true).put("thinking", false)
    /** A 1×1 PNG's first bytes are enough: the host does not decode (the Android side does, with BitmapFactory). */
    private val png = byteArrayOf(0x89.toByte(), 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3)

    private fun script(vararg attempts: JSONObject) = JSONObject().put("status", 3).put("model", model).put("generate", JSONArray(attempts.toList()))

    private fun image(data: String = Base64.getEncoder().encodeToString(png), mimeType: String = "image/png") =
        JSONObject().put("data", data).put("mimeType", mimeType)

    private fun generate(vararg images: JSONObject) =
        JSONObject().put("prompt", "Player: look.\nBrann:").put("promptPrefix", "RULES\n").put("images", JSONArray(images.toList()))

    @Test
    fun sendsTheImageBytesToMlKitWithThePrefixInsideThePrompt() {
        val attempt = JSONObject().put("chunks", JSONArray(listOf("A badge."))).put("finishReason", 0)
        HostHarness(script(attempt)).use { h ->
            h.ready()
            h.request(2, "generate", generate(image().put("width", 1).put("height", 1)))
            assertEquals("A badge.", h.next().getJSONObject("params").getString("delta"))
            assertEquals("stop", h.next().getJSONObject("result").getString("finishReason"))
            val sent = h.client.requests.single()
            val picture = sent.image!!
            assertArrayEquals(png, picture.bytes)
            assertEquals("image/png", picture.mimeType)
            assertEquals(1, picture.width)
            // ML Kit takes no promptPrefix with an image: the whole prompt goes, uncached.
            assertNull(sent.promptPrefix)
            assertEquals("RULES\nPlayer: look.\nBrann:", sent.prompt)
        }
    }

    @Test
    fun refusesWhatMlKitCannotTakeBeforeAskingIt() {
        val cases = listOf(
            generate(image(), image()) to "one image per request",
            generate(image(mimeType = "image/gif")) to "image/png or image/jpeg",
            generate(image(data = "not base64!")) to "not base64",
            generate(image(data = "")) to "empty",
            JSONObject().put("prompt", "p").put("images", "picture.png") to "must be a list",
        )
        HostHarness(script()).use { h ->
            h.ready()
            cases.forEachIndexed { index, (params, words) ->
                h.request(10 + index, "generate", params)
                val error = h.next().getJSONObject("error")
                assertEquals(-32602, error.getInt("code"))
                assertEquals("invalid_request", error.getJSONObject("data").getString("code"))
                assertTrue("case $index: ${error.getString("message")}", error.getString("message").contains(words))
            }
            assertEquals(0, h.client.generateCalls)
        }
    }

    @Test
    fun anImageMlKitRejectsIsInvalidRequestWithItsCode() {
        val attempt = JSONObject().put("error", JSONObject().put("code", -102).put("message", "[ErrorCode -102] bad image"))
        HostHarness(script(attempt)).use { h ->
            h.ready()
            h.request(2, "generate", generate(image()))
            val error = h.next().getJSONObject("error")
            assertEquals("invalid_request", error.getJSONObject("data").getString("code"))
            assertEquals(-102, error.getJSONObject("data").getInt("mlkitCode"))
            assertTrue(error.getString("message").contains("INVALID_INPUT_IMAGE"))
        }
    }

    @Test
    fun modelInfoSaysThisModuleTakesImages() {
        HostHarness(script()).use { h ->
            h.ready()
            h.request(2, "modelInfo")
            assertTrue(h.next().getJSONObject("result").getBoolean("imageInput"))
        }
    }
}
