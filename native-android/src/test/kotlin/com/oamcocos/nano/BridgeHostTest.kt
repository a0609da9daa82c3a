package com.oamcocos.nano

import com.oamcocos.nano.core.NanoClient
import com.oamcocos.nano.core.NanoFailure
import com.oamcocos.nano.core.NanoModelConfig
import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

class BridgeHostTest {
    private val model = JSONObject().put("baseModelName", "nano-v3").put("tokenLimit", 4000).put("systemPrompt", true).put("caching", true).put("thinking", false)

    private fun script(vararg attempts: JSONObject) = JSONObject().put("status", 3).put("model", model).put("generate", JSONArray(attempts.toList()))

    private fun attempt(vararg chunks: String) = JSONObject().put("chunks", JSONArray(chunks.toList())).put("finishReason", 0)

    private fun errorOf(msg: JSONObject): JSONObject = msg.getJSONObject("error")

    @Test
    fun sendsNothingBeforeAJsContextSaidReadyNotEvenAnError() {
        HostHarness().use { h ->
            h.send("not json")
            h.send("""{"jsonrpc":"2.0","method":"availability"}""")
            h.request(5, "availability")
            h.assertQuiet()
            assertEquals(0L, h.host.gate.deliveredCount)
            assertTrue(h.host.gate.droppedCount >= 1)
        }
    }

    @Test
    fun answersMalformedMessagesWithJsonRpcErrors() {
        HostHarness(script()).use { h ->
            h.ready()
            h.send("{oops")
            val parse = h.next()
            assertTrue(parse.isNull("id"))
            assertEquals(-32700, errorOf(parse).getInt("code"))
            h.send("""{"jsonrpc":"1.0","id":2,"method":"availability"}""")
            assertEquals(-32600, errorOf(h.next()).getInt("code"))
            h.request(3, "teleport")
            val unknown = h.next()
            assertEquals(3, unknown.getInt("id"))
            assertEquals(-32601, errorOf(unknown).getInt("code"))
            h.request(4, "generate", JSONObject().put("prompt", 42))
            val bad = errorOf(h.next())
            assertEquals(-32602, bad.getInt("code"))
            assertEquals("invalid_request", bad.getJSONObject("data").getString("code"))
            h.request(5, "countTokens")
            assertEquals(-32602, errorOf(h.next()).getInt("code"))
            h.assertQuiet()
        }
    }

    @Test
    fun echoesStringIds() {
        HostHarness(script()).use { h ->
            h.ready()
            h.send("""{"jsonrpc":"2.0","id":"a-1","method":"availability","params":{}}""")
            val answer = h.next()
            assertEquals("a-1", answer.getString("id"))
            assertEquals("available", answer.getJSONObject("result").getString("status"))
        }
    }

    @Test
    fun clampsParametersToMlKitRanges() {
        HostHarness(script(attempt("ok"))).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "p").put("temperature", 3.5).put("topK", 0).put("seed", -1).put("maxOutputTokens", 99999).put("systemInstruction", ""))
            h.next() // chunk
            assertEquals("stop", h.next().getJSONObject("result").getString("finishReason"))
            val r = h.client.requests.single()
            assertEquals(1.0f, r.temperature)
            assertEquals(null, r.topK)
            assertEquals(Int.MAX_VALUE, r.seed)
            assertEquals(4096, r.maxOutputTokens)
            assertEquals(null, r.systemInstruction)
        }
    }

    @Test
    fun aBrokenPrefixCacheStaysOffForLaterRequests() {
        val fail = JSONObject().put("error", JSONObject().put("code", -103))
        HostHarness(script(fail, attempt("a"), attempt("b"))).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("promptPrefix", "P:").put("prompt", "x"))
            h.next()
            h.next()
            h.request(3, "generate", JSONObject().put("promptPrefix", "P:").put("prompt", "y"))
            h.next()
            h.next()
            assertEquals(listOf("P:" to "x", null to "P:x", null to "P:y"), h.client.requests.map { it.promptPrefix to it.prompt })
            h.request(4, "modelInfo")
            assertFalse(h.next().getJSONObject("result").getBoolean("prefixCaching"))
        }
    }

    @Test
    fun aCacheFailureAfterOutputIsNotResent() {
        val failLate = JSONObject().put("chunks", JSONArray().put("half")).put("error", JSONObject().put("code", -103))
        HostHarness(script(failLate)).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("promptPrefix", "P:").put("prompt", "x"))
            assertEquals("half", h.next().getJSONObject("params").getString("delta"))
            val e = errorOf(h.next())
            assertEquals("generation_failed", e.getJSONObject("data").getString("code"))
            assertEquals(-103, e.getJSONObject("data").getInt("mlkitCode"))
            assertEquals(1, h.client.requests.size)
        }
    }

    @Test
    fun anEmptyAbnormalStopFails() {
        val empty = JSONObject().put("chunks", JSONArray().put("")).put("finishReason", -100)
        HostHarness(script(empty)).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "x"))
            assertEquals("generation_failed", errorOf(h.next()).getJSONObject("data").getString("code"))
        }
    }

    @Test
    fun aWrappedMlKitFailureIsStillMapped() {
        val client = object : NanoClient by ScriptedNanoClient(script()) {
            override suspend fun checkStatus(): Int = throw RuntimeException("wrapper", NanoFailure(604, "update"))
            override suspend fun countTokens(request: com.oamcocos.nano.core.NanoRequest): Int = throw RuntimeException("wrapper", NanoFailure(12, "too large"))
        }
        HostHarness(clientFactory = { client }).use { h ->
            h.ready()
            h.request(2, "availability")
            val a = h.next().getJSONObject("result")
            assertEquals("needs_system_update", a.getString("reason"))
            h.request(3, "countTokens", JSONObject().put("text", "t"))
            assertEquals("context_size_exceeded", errorOf(h.next()).getJSONObject("data").getString("code"))
        }
    }

    @Test
    fun aClientThatCannotBeCreatedMeansModelUnavailable() {
        HostHarness(clientFactory = { throw IllegalStateException("no AICore") }).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "x"))
            val e = errorOf(h.next())
            assertEquals("model_unavailable", e.getJSONObject("data").getString("code"))
            assertTrue(e.getString("message").contains("no AICore"))
            h.request(3, "availability")
            assertEquals("unavailable", h.next().getJSONObject("result").getString("status"))
        }
    }

    @Test
    fun cancelAsARequestIsAnsweredAndTheGenerationEndsCancelled() {
        val hang = JSONObject().put("hang", true)
        HostHarness(script(hang)).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "x"))
            h.request(3, "cancel", JSONObject().put("id", 2))
            val answers = listOf(h.next(), h.next()).associateBy { it.getInt("id") }
            assertTrue(answers.getValue(3).getJSONObject("result").getBoolean("cancelled"))
            assertEquals("cancelled", errorOf(answers.getValue(2)).getJSONObject("data").getString("code"))
            h.request(4, "cancel", JSONObject().put("id", 2))
            assertFalse(h.next().getJSONObject("result").getBoolean("cancelled"))
        }
    }

    @Test
    fun aNewReadyDropsWorkOfTheOldJsContextSilently() {
        val hang = JSONObject().put("hang", true)
        HostHarness(script(hang, attempt("fresh"))).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "old"))
            Thread.sleep(50)
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "new"))
            val chunk = h.next()
            assertEquals("fresh", chunk.getJSONObject("params").getString("delta"))
            assertEquals("fresh", h.next().getJSONObject("result").getString("text"))
            h.assertQuiet()
        }
    }

    @Test
    fun closeClosesTheClientAndSilencesTheHost() {
        val hang = JSONObject().put("hang", true)
        val h = HostHarness(script(hang))
        h.ready()
        h.request(2, "generate", JSONObject().put("prompt", "x"))
        Thread.sleep(50)
        h.close()
        assertTrue(h.client.closed)
        h.request(3, "availability")
        h.assertQuiet()
    }

    @Test
    fun generationsRunOneAtATime() {
        HostHarness(script(attempt("a1", "a2"), attempt("b1"))).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "a"))
            h.request(3, "generate", JSONObject().put("prompt", "b"))
            val ids = (1..5).map { val m = h.next(); if (m.has("params")) m.getJSONObject("params").getInt("id") else m.getInt("id") }
            assertEquals(listOf(2, 2, 2, 3, 3), ids)
        }
    }

    private fun awaitEvent(client: ScriptedNanoClient, event: String) {
        val until = System.nanoTime() + 5_000_000_000L
        while (event !in client.events) {
            if (System.nanoTime() > until) throw AssertionError("ML Kit never saw $event: ${client.events}")
            Thread.sleep(5)
        }
    }

    @Test
    fun closeDuringAStreamingGenerationClosesTheClientOnlyAfterTheGenerationEnded() {
        val h = HostHarness(script(JSONObject().put("hang", true)))
        h.ready()
        h.request(2, "generate", JSONObject().put("prompt", "x"))
        awaitEvent(h.client, "generate:start")
        h.close() // waits for the host's close job, then shuts the executor down
        assertEquals(listOf("generate:start", "generate:end", "close"), h.client.events.toList())
        assertEquals("tasks rejected by the shut-down executor", 0, h.rejected.get())
        h.assertQuiet()
    }

    @Test
    fun closeTwiceIsHarmlessAndClosesTheClientOnce() {
        val h = HostHarness(script())
        h.ready()
        h.request(2, "availability")
        h.next()
        h.close()
        h.close()
        assertEquals(listOf("close"), h.client.events.toList())
    }

    @Test
    fun readySelectsTheModelAndAChangedSelectionRetiresTheOldClient() {
        HostHarness(script()).use { h ->
            h.request(1, "ready", JSONObject().put("protocol", 1).put("preference", "fast").put("releaseStage", "preview"))
            h.next()
            h.request(2, "availability")
            h.next()
            assertEquals(listOf(NanoModelConfig(preference = NanoModelConfig.FAST, releaseStage = NanoModelConfig.PREVIEW)), h.configs.toList())
            h.request(1, "ready", JSONObject().put("protocol", 1).put("preference", "fast").put("releaseStage", "preview"))
            h.next()
            h.request(2, "availability")
            h.next()
            assertEquals("same selection keeps the client", 1, h.configs.size)
            h.ready()
            h.request(2, "availability")
            h.next()
            assertEquals(listOf(NanoModelConfig(NanoModelConfig.FAST, NanoModelConfig.PREVIEW), NanoModelConfig()), h.configs.toList())
            assertEquals(listOf("close"), h.client.events.toList())
        }
    }

    @Test
    fun readyWithAnUnknownModelSelectionIsRefused() {
        HostHarness(script()).use { h ->
            h.request(1, "ready", JSONObject().put("protocol", 1).put("preference", "huge"))
            val e = errorOf(h.next())
            assertEquals(-32602, e.getInt("code"))
            assertTrue(e.getString("message").contains("preference"))
            h.request(2, "ready", JSONObject().put("protocol", 1).put("releaseStage", 1))
            assertEquals(-32602, errorOf(h.next()).getInt("code"))
            h.request(3, "availability")
            assertEquals("still not ready", -32600, errorOf(h.next()).getInt("code"))
        }
    }

    @Test
    fun stringIdsAreEchoedInChunksAnswersAndCancels() {
        HostHarness(script(attempt("a", "b"), JSONObject().put("hang", true))).use { h ->
            h.ready()
            h.send("""{"jsonrpc":"2.0","id":"c7f3-2","method":"generate","params":{"prompt":"x"}}""")
            assertEquals("c7f3-2", h.next().getJSONObject("params").getString("id"))
            assertEquals("c7f3-2", h.next().getJSONObject("params").getString("id"))
            assertEquals("c7f3-2", h.next().getString("id"))
            h.send("""{"jsonrpc":"2.0","id":"c7f3-3","method":"generate","params":{"prompt":"y"}}""")
            awaitEvent(h.client, "generate:start")
            h.send("""{"jsonrpc":"2.0","method":"cancel","params":{"id":"c7f3-3"}}""")
            val answer = h.next()
            assertEquals("c7f3-3", answer.getString("id"))
            assertEquals("cancelled", errorOf(answer).getJSONObject("data").getString("code"))
        }
    }

    @Test
    fun thinkingIsPassedToMlKitOnlyWhenAsked() {
        HostHarness(script(attempt("a"), attempt("b"))).use { h ->
            h.ready()
            h.request(2, "generate", JSONObject().put("prompt", "x").put("thinking", true))
            h.next(); h.next()
            h.request(3, "generate", JSONObject().put("prompt", "y"))
            h.next(); h.next()
            assertEquals(listOf(true, false), h.client.requests.map { it.enableThinking })
            h.request(4, "generate", JSONObject().put("prompt", "z").put("thinking", "yes"))
            assertEquals(-32602, errorOf(h.next()).getInt("code"))
        }
    }
}
