package com.oamcocos.nano.core

import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.Job
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import org.json.JSONObject

/**
 * The native end of the bridge: reads JSON-RPC requests from JS, calls ML Kit through a
 * [NanoClient], and sends answers, chunk and progress notifications back.
 *
 * [onMessage] is called on Cocos's game thread: it reads the message there (so `ready` and
 * `detach` move the [gate] in the order JS spoke) and hands the work to this host's scope on
 * [dispatcher], which must be single-threaded (the host's state is confined to it, and answers
 * leave in order). Every outgoing message passes the [gate]: nothing is sent unless the engine
 * is alive and the JS context the work belongs to has said `ready` and is still there.
 */
class BridgeHost(
    /** Creates the ML Kit client for the model the JS side selected in `ready`. */
    private val clientFactory: (NanoModelConfig) -> NanoClient,
    send: (String) -> Unit,
    dispatcher: CoroutineDispatcher,
    /**
     * False while no activity of the app is visible: generation is refused before ML Kit is
     * asked. A paused but visible activity (a permission dialog, a billing sheet on top) counts
     * as visible; ML Kit makes its own, final check (BACKGROUND_USE_BLOCKED).
     */
    private val isForeground: () -> Boolean = { true },
) {
    /** The check every outgoing message passes; see [BridgeGate]. */
    val gate = BridgeGate(send)
    private val scope = CoroutineScope(SupervisorJob() + dispatcher)
    private val running = HashMap<Any, Job>()
    private val inference = Mutex()
    private var client: NanoClient? = null
    /** The model selection of the current JS context (from `ready`). */
    private var config = NanoModelConfig()
    /** The epoch whose `ready` was accepted; work is taken only from that context. */
    private var readyEpoch = -1
    /** Set after a CACHE_PROCESSING_ERROR: prefixes are sent as plain text from then on. */
    private var prefixCacheBroken = false
    @Volatile private var closed = false
    /** The job that closes the client, once [close] was called. */
    @Volatile private var closing: Job? = null

    /** Takes one message off the game thread at once. Never blocks, never throws. */
    fun onMessage(raw: String?) {
        if (closed) return
        val msg = try {
            JSONObject(raw ?: "")
        } catch (_: Exception) {
            null
        }
        val epochOfMessage = when (msg?.opt("method")) {
            "ready" -> gate.contextReady()
            "detach" -> gate.contextGone()
            else -> gate.currentEpoch
        }
        scope.launch { handle(msg, epochOfMessage) }
    }

    /**
     * The engine is going away (the Cocos activity is being destroyed, finishing or not). Closes
     * the gate before returning, so nothing is sent from now on, and cancels the work of the JS
     * context that lived in it (a download follow-up, a streaming generation). With
     * [releaseClient] (the app is finishing) the ML Kit client is closed too, after that work
     * ended; otherwise it is kept for the next context (a configuration change).
     */
    fun onEngineGone(releaseClient: Boolean): Job {
        gate.engineGone()
        if (closed) return closing ?: Job().apply { complete() }
        return scope.launch(NonCancellable) {
            val stopping = dropContext()
            if (releaseClient) {
                val old = client
                client = null
                stopping.joinAll()
                closeQuietly(old)
            }
        }
    }

    /**
     * Cancels everything and sends nothing more; the ML Kit client is closed on the host's own
     * thread once every running coroutine has ended (cancellation is asynchronous, and closing
     * the client under a live generation is a race). The returned job completes after that:
     * only then may the caller shut the dispatcher's executor down.
     */
    fun close(): Job {
        if (closed) return closing ?: Job().apply { complete() }
        closed = true
        gate.engineGone()
        val parent = scope.coroutineContext[Job]!!
        val children = parent.children.toList()
        parent.cancel()
        // NonCancellable: the scope is cancelled, this last job must still run.
        val job = scope.launch(NonCancellable) {
            children.joinAll()
            closeQuietly(client)
            client = null
        }
        closing = job
        return job
    }

    /** Cancels the work of the current context without answering it; returns the cancelled jobs. */
    private fun dropContext(): List<Job> {
        readyEpoch = -1
        val stopping = running.values.toList()
        for (job in stopping) job.cancel(CancellationException("its JS context or engine is gone"))
        running.clear()
        return stopping
    }

    private fun closeQuietly(c: NanoClient?) {
        try {
            c?.close()
        } catch (_: Throwable) {
            // Closing is best effort; the process may be going away.
        }
    }

    private fun emit(epochOfWork: Int, message: String) {
        if (closed) return
        gate.send(epochOfWork, message)
    }

    private fun handle(msg: JSONObject?, epoch: Int) {
        // A message of a context that is already gone starts nothing (it cannot be answered).
        if (epoch != gate.currentEpoch) return
        if (msg == null) {
            if (readyEpoch == epoch) emit(epoch, BridgeMessages.error(null, RpcError(AgentErrorCode.INVALID_REQUEST, "Parse error: not a JSON object.", rpcCode = BridgeMessages.PARSE_ERROR)))
            return
        }
        val id: Any? = msg.opt("id")?.takeIf { it != JSONObject.NULL }
        val method = msg.opt("method") as? String
        if (msg.opt("jsonrpc") != "2.0" || method == null || (id != null && id !is Number && id !is String)) {
            if (readyEpoch == epoch) emit(epoch, BridgeMessages.error(id, RpcError(AgentErrorCode.INVALID_REQUEST, "Invalid JSON-RPC 2.0 request.", rpcCode = BridgeMessages.INVALID_MESSAGE)))
            return
        }
        val params = msg.optJSONObject("params") ?: JSONObject()

        if (method == "ready") {
            val selected = try {
                NanoModelConfig.parse(params)
            } catch (e: RpcError) {
                dropContext() // the previous context is gone all the same
                if (id != null) emit(epoch, BridgeMessages.error(id, e))
                return
            }
            startNewContext(selected, epoch)
            if (id != null) emit(epoch, BridgeMessages.result(id, JSONObject().put("protocol", BridgeMessages.PROTOCOL_VERSION).put("platform", "android")))
            return
        }
        if (method == "detach") {
            // The gate closed when the message arrived; the context's work ends unanswered.
            dropContext()
            return
        }
        if (method == "cancel") {
            val target = params.opt("id")
            val job = target?.let { running[normaliseId(it)] }
            job?.cancel(CancellationException("cancelled by JS"))
            if (id != null) emit(epoch, BridgeMessages.result(id, JSONObject().put("cancelled", job != null)))
            return
        }
        if (id == null) return // other notifications mean nothing here
        if (readyEpoch != epoch) {
            // This context said `ready` (the gate is open) but its selection was refused.
            emit(epoch, BridgeMessages.error(id, RpcError(AgentErrorCode.INVALID_REQUEST, "Send 'ready' before '$method'.", rpcCode = BridgeMessages.INVALID_MESSAGE)))
            return
        }
        val work: (suspend () -> JSONObject)? = when (method) {
            "availability" -> { { availability() } }
            "download" -> { { download(id, epoch) } }
            "modelInfo" -> { { modelInfo() } }
            "generate" -> { { generate(id, params, epoch) } }
            "countTokens" -> { { countTokens(params) } }
            "warmup" -> { { requireClient().warmup(); JSONObject() } }
            else -> null
        }
        if (work == null) {
            emit(epoch, BridgeMessages.error(id, RpcError(AgentErrorCode.INVALID_REQUEST, "Unknown method '$method'.", rpcCode = BridgeMessages.METHOD_NOT_FOUND)))
            return
        }
        val myEpoch = epoch
        val key = normaliseId(id)
        // ATOMIC: even a job cancelled before it starts runs its body, so it still answers "cancelled"
        // (the gate drops that answer when the job was cancelled because its context is gone).
        @OptIn(ExperimentalCoroutinesApi::class) // ATOMIC is experimental in kotlinx.coroutines 1.10
        val job = scope.launch(start = CoroutineStart.ATOMIC) {
            val answer = try {
                ensureActive()
                BridgeMessages.result(id, work())
            } catch (e: CancellationException) {
                BridgeMessages.error(id, RpcError(AgentErrorCode.CANCELLED, "The ${if (method == "generate") "generation" else method} was cancelled."))
            } catch (e: Throwable) {
                BridgeMessages.error(id, toRpcError(e, method))
            }
            if (running[key] === coroutineContext[Job]) running.remove(key)
            emit(myEpoch, answer)
        }
        running[key] = job
    }

    /**
     * A (re)loaded JS context: stop what the previous one started, without answering it. A
     * different model selection retires the current client once its cancelled work has ended.
     */
    private fun startNewContext(selected: NanoModelConfig, epoch: Int) {
        val stopping = dropContext()
        readyEpoch = epoch
        if (selected != config) {
            val old = client
            client = null
            config = selected
            if (old != null) scope.launch(NonCancellable) { stopping.joinAll(); closeQuietly(old) }
        }
    }

    private fun requireClient(): NanoClient {
        client?.let { return it }
        val created = try {
            clientFactory(config)
        } catch (e: Throwable) {
            throw RpcError(AgentErrorCode.MODEL_UNAVAILABLE, "Could not create the ML Kit client: ${e.message ?: e.javaClass.simpleName}")
        }
        client = created
        return created
    }

    private suspend fun availability(): JSONObject {
        val status = try {
            requireClient().checkStatus()
        } catch (e: CancellationException) {
            throw e
        } catch (e: Throwable) {
            val failure = NanoErrors.findFailure(e)
            val out = JSONObject().put("status", "unavailable")
            if (failure == null) return out.put("reason", "unknown")
            return out.put("reason", NanoErrors.unavailableReason(failure.mlkitCode)).put("mlkitCode", failure.mlkitCode)
        }
        return when (status) {
            NanoStatus.AVAILABLE -> JSONObject().put("status", "available")
            NanoStatus.DOWNLOADABLE -> JSONObject().put("status", "downloadable")
            NanoStatus.DOWNLOADING -> JSONObject().put("status", "downloading")
            NanoStatus.UNAVAILABLE -> JSONObject().put("status", "unavailable").put("reason", "device_not_eligible")
            else -> JSONObject().put("status", "unavailable").put("reason", "unknown")
        }
    }

    private suspend fun download(id: Any, myEpoch: Int): JSONObject {
        var total: Long = 0
        try {
            requireClient().download().collect { event ->
                when (event) {
                    is NanoDownloadEvent.Started -> {
                        total = event.bytesToDownload
                        emit(myEpoch, progress(id, 0, total))
                    }
                    is NanoDownloadEvent.Progress -> emit(myEpoch, progress(id, event.totalBytesDownloaded, total))
                    is NanoDownloadEvent.Completed -> Unit
                    is NanoDownloadEvent.Failed -> throw event.failure
                }
            }
        } catch (e: CancellationException) {
            throw e
        } catch (e: Throwable) {
            val failure = NanoErrors.findFailure(e) ?: throw e
            throw NanoErrors.toRpcError(failure, forceCode = AgentErrorCode.MODEL_UNAVAILABLE)
        }
        return JSONObject().put("status", "available")
    }

    private fun progress(id: Any, bytes: Long, total: Long): String {
        val params = JSONObject().put("id", id).put("bytesDownloaded", bytes)
        if (total > 0) params.put("totalBytes", total)
        return BridgeMessages.notification("download/progress", params)
    }

    private suspend fun modelInfo(): JSONObject {
        val c = requireClient()
        val name = c.baseModelName()
        val limit = c.tokenLimit()
        return JSONObject()
            .put("baseModelName", name)
            .put("tokenLimit", limit)
            .put("systemInstructions", feature { c.isSystemPromptAvailable() })
            .put("prefixCaching", !prefixCacheBroken && feature { c.isCachingAvailable() })
            .put("thinking", feature { c.isThinkingAvailable() })
            .put("imageInput", true)
    }

    /** A feature check that fails counts as "not supported". */
    private suspend fun feature(check: suspend () -> Boolean): Boolean = try {
        check()
    } catch (e: CancellationException) {
        throw e
    } catch (_: Throwable) {
        false
    }

    private suspend fun countTokens(params: JSONObject): JSONObject {
        val text = params.optStringOrNull("text") ?: throw BridgeMessages.invalidParams("countTokens needs 'text'")
        return JSONObject().put("totalTokens", requireClient().countTokens(NanoRequest(prompt = text)))
    }

    private suspend fun generate(id: Any, params: JSONObject, myEpoch: Int): JSONObject {
        val request = parseGenerate(params)
        if (!isForeground()) {
            throw NanoErrors.toRpcError(NanoFailure(NanoErrors.BACKGROUND_USE_BLOCKED, "app in background"))
        }
        val c = requireClient()
        val chunker = SurrogateSafeChunker()
        val text = StringBuilder()
        var seq = 0
        var finish: Int? = null

        fun sendDelta(delta: String) {
            if (delta.isEmpty()) return
            text.append(delta)
            emit(myEpoch, BridgeMessages.notification("generate/chunk", JSONObject().put("id", id).put("delta", delta).put("seq", seq++)))
        }

        suspend fun attempt(r: NanoRequest) {
            c.generateStream(r).collect { chunk ->
                sendDelta(chunker.push(chunk.text))
                if (chunk.finishReason != null) finish = chunk.finishReason
            }
        }

        val first = if (prefixCacheBroken) request.withoutPrefix() else request
        inference.withLock {
            try {
                attempt(first)
            } catch (e: CancellationException) {
                throw e
            } catch (e: Throwable) {
                val failure = NanoErrors.findFailure(e)
                val nothingSent = seq == 0 && !chunker.isHolding
                if (failure?.mlkitCode == NanoErrors.CACHE_PROCESSING_ERROR && first.promptPrefix != null && nothingSent) {
                    prefixCacheBroken = true
                    attempt(first.withoutPrefix())
                } else {
                    throw e
                }
            }
        }
        sendDelta(chunker.finish())
        val reason = when (finish) {
            null, NanoFinishReason.STOP -> "stop"
            NanoFinishReason.MAX_TOKENS -> "max_tokens"
            else -> "other"
        }
        if (text.isEmpty() && reason == "other") {
            throw RpcError(AgentErrorCode.GENERATION_FAILED, "Gemini Nano stopped without producing any text.")
        }
        return JSONObject().put("text", text.toString()).put("finishReason", reason)
    }

    /** Reads generate params and clamps them to ML Kit's ranges. */
    private fun parseGenerate(params: JSONObject): NanoRequest {
        val prompt = params.optStringOrNull("prompt") ?: throw BridgeMessages.invalidParams("generate needs a string 'prompt'")
        val prefix = params.optStringOrNull("promptPrefix")?.takeIf { it.isNotEmpty() }
        if (prompt.isEmpty() && prefix == null) throw BridgeMessages.invalidParams("generate needs a non-empty prompt")
        val request = NanoRequest(
            prompt = prompt,
            promptPrefix = prefix,
            systemInstruction = params.optStringOrNull("systemInstruction")?.takeIf { it.isNotEmpty() },
            temperature = params.optNumberOrNull("temperature")?.coerceIn(0.0, 1.0)?.toFloat(),
            topK = params.optNumberOrNull("topK")?.toInt()?.takeIf { it > 0 },
            seed = params.optNumberOrNull("seed")?.toLong()?.let { (it and 0x7fffffffL).toInt() },
            maxOutputTokens = params.optNumberOrNull("maxOutputTokens")?.toInt()?.coerceIn(1, 4096),
            enableThinking = params.optBooleanOrNull("thinking") ?: false,
            image = NanoImages.parse(params),
        )
        // ML Kit takes no prompt prefix with an image: that call sends the whole prompt, uncached.
        return if (request.image != null) request.withoutPrefix() else request
    }

    private fun toRpcError(e: Throwable, method: String): RpcError {
        if (e is RpcError) return e
        val failure = NanoErrors.findFailure(e)
        if (failure != null) return NanoErrors.toRpcError(failure)
        if (e is IllegalArgumentException) return RpcError(AgentErrorCode.INVALID_REQUEST, "Gemini Nano rejected the '$method' arguments: ${e.message}")
        return RpcError(AgentErrorCode.GENERATION_FAILED, "Gemini Nano '$method' failed: ${e.message ?: e.javaClass.simpleName}")
    }

    /** JSON numbers may arrive as Integer or Long; both name the same request. */
    private fun normaliseId(id: Any): Any = if (id is Number) id.toLong() else id
}
