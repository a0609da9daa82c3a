package com.oamcocos.nano

import com.oamcocos.nano.core.BridgeHost
import com.oamcocos.nano.core.NanoChunk
import com.oamcocos.nano.core.NanoClient
import com.oamcocos.nano.core.NanoDownloadEvent
import com.oamcocos.nano.core.NanoFailure
import com.oamcocos.nano.core.NanoModelConfig
import com.oamcocos.nano.core.NanoRequest
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import org.json.JSONArray
import org.json.JSONObject
import java.io.File
import java.util.Collections
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.TimeUnit

/** fixtures/bridge, shared with the TypeScript tests. */
val fixtureDir: File = File(System.getProperty("oam.fixtures") ?: "fixtures/bridge")

fun loadFixture(name: String): JSONObject = JSONObject(File(fixtureDir, "$name.json").readText(Charsets.UTF_8))

/** Structural JSON equality; numbers compare by value (1 == 1.0), key order does not matter. */
fun jsonEquals(a: Any?, b: Any?): Boolean {
    val x = if (a == null) JSONObject.NULL else a
    val y = if (b == null) JSONObject.NULL else b
    return when {
        x is JSONObject && y is JSONObject -> {
            val keys = x.keys().asSequence().toSet()
            keys == y.keys().asSequence().toSet() && keys.all { jsonEquals(x.opt(it), y.opt(it)) }
        }
        x is JSONArray && y is JSONArray -> x.length() == y.length() && (0 until x.length()).all { jsonEquals(x.opt(it), y.opt(it)) }
        x is Number && y is Number -> x.toDouble() == y.toDouble()
        else -> x == y
    }
}

/**
 * A fake ML Kit that plays a fixture's `mlkit` script: status, model info, download events,
 * and per generate call the expected request, the chunks, a finish reason, an error or a hang.
 */
class ScriptedNanoClient(private val script: JSONObject) : NanoClient {
    val requests: MutableList<NanoRequest> = Collections.synchronizedList(mutableListOf())
    val mismatches: MutableList<String> = Collections.synchronizedList(mutableListOf())
    @Volatile var closed = false
    @Volatile var generateCalls = 0
    /** What happened, in order: "generate:start", "generate:end", "close". */
    val events: MutableList<String> = Collections.synchronizedList(mutableListOf())

    private fun failure(spec: JSONObject) = NanoFailure(spec.getInt("code"), spec.optString("message", "[ErrorCode ${spec.getInt("code")}] scripted"), spec.optLong("retryDelayMs", 0))

    override suspend fun checkStatus(): Int {
        script.optJSONObject("statusError")?.let { throw failure(it) }
        return script.optInt("status", 3)
    }

    override fun download(): Flow<NanoDownloadEvent> = flow {
        val events = script.optJSONArray("download") ?: JSONArray().put(JSONObject().put("completed", true))
        for (i in 0 until events.length()) {
            val e = events.getJSONObject(i)
            when {
                e.has("started") -> emit(NanoDownloadEvent.Started(e.getLong("started")))
                e.has("progress") -> emit(NanoDownloadEvent.Progress(e.getLong("progress")))
                e.has("completed") -> emit(NanoDownloadEvent.Completed)
                e.has("failed") -> emit(NanoDownloadEvent.Failed(failure(e.getJSONObject("failed"))))
            }
        }
    }

    override suspend fun warmup() = Unit

    private fun model(): JSONObject = script.optJSONObject("model") ?: throw NanoFailure(8, "[ErrorCode 8] not available")

    override suspend fun baseModelName(): String = model().getString("baseModelName")
    override suspend fun tokenLimit(): Int = model().getInt("tokenLimit")
    override suspend fun isSystemPromptAvailable(): Boolean = model().optBoolean("systemPrompt")
    override suspend fun isCachingAvailable(): Boolean = model().optBoolean("caching")
    override suspend fun isThinkingAvailable(): Boolean = model().optBoolean("thinking")

    override suspend fun countTokens(request: NanoRequest): Int = script.getInt("countTokens")

    override fun generateStream(request: NanoRequest): Flow<NanoChunk> = flow {
        requests.add(request)
        val attempts = script.optJSONArray("generate") ?: JSONArray()
        val index = generateCalls++
        if (index >= attempts.length()) {
            mismatches.add("unexpected ML Kit generate call #$index: $request")
            throw IllegalStateException("no scripted generate attempt left")
        }
        val attempt = attempts.getJSONObject(index)
        attempt.optJSONObject("expect")?.let { checkRequest(index, it, request) }
        val chunks = attempt.optJSONArray("chunks") ?: JSONArray()
        for (i in 0 until chunks.length()) {
            val last = i == chunks.length() - 1
            val reason = if (last && attempt.has("finishReason")) attempt.getInt("finishReason") else null
            emit(NanoChunk(chunks.getString(i), reason))
        }
        attempt.optJSONObject("error")?.let { throw failure(it) }
        if (attempt.optBoolean("hang")) {
            events.add("generate:start")
            try {
                awaitCancellation()
            } finally {
                // A cancelled coroutine still runs this on the host's thread: it must not be rejected.
                Thread.sleep(20)
                events.add("generate:end")
            }
        }
    }

    private fun checkRequest(index: Int, expect: JSONObject, r: NanoRequest) {
        val actual = JSONObject()
        actual.put("prompt", r.prompt)
        r.promptPrefix?.let { actual.put("promptPrefix", it) }
        r.systemInstruction?.let { actual.put("systemInstruction", it) }
        r.temperature?.let { actual.put("temperature", Math.round(it * 1000) / 1000.0) }
        r.topK?.let { actual.put("topK", it) }
        r.seed?.let { actual.put("seed", it) }
        r.maxOutputTokens?.let { actual.put("maxOutputTokens", it) }
        if (r.enableThinking) actual.put("enableThinking", true)
        r.image?.let { image ->
            val seen = JSONObject().put("mimeType", image.mimeType).put("bytes", image.bytes.size)
            image.width?.let { seen.put("width", it) }
            image.height?.let { seen.put("height", it) }
            actual.put("image", seen)
        }
        if (!jsonEquals(expect, actual)) mismatches.add("ML Kit request #$index: expected $expect, got $actual")
    }

    val attemptsLeft: Int get() = (script.optJSONArray("generate")?.length() ?: 0) - generateCalls

    override fun close() {
        events.add("close")
        closed = true
    }
}

/**
 * A BridgeHost on its own single thread, with every outgoing message captured. The executor
 * counts rejected tasks (work handed to it after shutdown) instead of hiding them.
 */
class HostHarness(script: JSONObject = JSONObject(), foreground: Boolean = script.optBoolean("foreground", true), clientFactory: ((NanoModelConfig) -> NanoClient)? = null) : AutoCloseable {
    val client = ScriptedNanoClient(script)
    val out = LinkedBlockingQueue<String>()
    /** The model selections the host created clients for, in order. */
    val configs: MutableList<NanoModelConfig> = Collections.synchronizedList(mutableListOf())
    val rejected = AtomicInteger()
    private val executor = ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, LinkedBlockingQueue(), { r -> Thread(r, "oam-nano-test").apply { isDaemon = true } }) { _, _ ->
        rejected.incrementAndGet()
        throw RejectedExecutionException("oam-nano-test executor is shut down")
    }
    private val dispatcher = executor.asCoroutineDispatcher()
    val host = BridgeHost({ config -> configs.add(config); (clientFactory ?: { client })(config) }, { out.add(it) }, dispatcher, { foreground })

    fun send(message: String) = host.onMessage(message)

    fun request(id: Int, method: String, params: JSONObject = JSONObject()) =
        send(JSONObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params).toString())

    fun ready() {
        request(1, "ready", JSONObject().put("protocol", 1))
        next()
    }

    /** The next message the host sent, or an AssertionError after 5 s. */
    fun next(): JSONObject {
        val raw = out.poll(5, TimeUnit.SECONDS) ?: throw AssertionError("the host sent nothing within 5 s")
        return JSONObject(raw)
    }

    /** Asserts the host stays silent for a short while. */
    fun assertQuiet(ms: Long = 150) {
        val extra = out.poll(ms, TimeUnit.MILLISECONDS)
        if (extra != null) throw AssertionError("unexpected message from the host: $extra")
    }

    /** Closes the host, waits until it has closed the client, then shuts the executor down. */
    override fun close() {
        runBlocking { withTimeout(5000) { host.close().join() } }
        dispatcher.close()
    }
}
