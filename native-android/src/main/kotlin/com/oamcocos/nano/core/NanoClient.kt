package com.oamcocos.nano.core

import kotlinx.coroutines.flow.Flow

/**
 * The few ML Kit calls the bridge needs, behind our own interface: ML Kit's GenerativeModel
 * has obfuscated abstract members, so only this seam lets the protocol handling be tested
 * on a plain JVM against a fake. The real implementation is android/MlKitNanoClient.
 *
 * Implementations report ML Kit failures as [NanoFailure] and argument problems as
 * IllegalArgumentException.
 */
interface NanoClient {
    /** ML Kit FeatureStatus: see [NanoStatus]. */
    suspend fun checkStatus(): Int
    fun download(): Flow<NanoDownloadEvent>
    suspend fun warmup()
    suspend fun baseModelName(): String
    suspend fun tokenLimit(): Int
    suspend fun isSystemPromptAvailable(): Boolean
    suspend fun isCachingAvailable(): Boolean
    suspend fun isThinkingAvailable(): Boolean
    suspend fun countTokens(request: NanoRequest): Int
    /** Each element carries the NEW text since the previous one; the last may carry a finish reason. */
    fun generateStream(request: NanoRequest): Flow<NanoChunk>
    fun close()
}

/** ML Kit's FeatureStatus values. */
object NanoStatus {
    const val UNAVAILABLE = 0
    const val DOWNLOADABLE = 1
    const val DOWNLOADING = 2
    const val AVAILABLE = 3
}

/** ML Kit's Candidate.FinishReason values. */
object NanoFinishReason {
    const val STOP = 0
    const val MAX_TOKENS = 1
    const val OTHER = -100
}

/** One generation as ML Kit will receive it; values are already clamped to ML Kit's ranges. */
data class NanoRequest(
    val prompt: String,
    val promptPrefix: String? = null,
    val systemInstruction: String? = null,
    val temperature: Float? = null,
    val topK: Int? = null,
    val seed: Int? = null,
    val maxOutputTokens: Int? = null,
    /** ML Kit thinking mode (beta4 `enableThinking`); JS asks only where modelInfo.thinking is true. */
    val enableThinking: Boolean = false,
    /** The one picture of the request (ML Kit `ImagePart`); never sent together with [promptPrefix]. */
    val image: NanoImage? = null,
) {
    /** The same request with the prefix folded into the prompt (for the cache-failure resend). */
    fun withoutPrefix(): NanoRequest =
        if (promptPrefix == null) this else copy(prompt = promptPrefix + prompt, promptPrefix = null)
}

data class NanoChunk(val text: String, val finishReason: Int? = null)

sealed class NanoDownloadEvent {
    data class Started(val bytesToDownload: Long) : NanoDownloadEvent()
    data class Progress(val totalBytesDownloaded: Long) : NanoDownloadEvent()
    object Completed : NanoDownloadEvent()
    data class Failed(val failure: NanoFailure) : NanoDownloadEvent()
}

/** An ML Kit GenAiException, reduced to what the bridge reports. */
class NanoFailure(
    val mlkitCode: Int,
    message: String,
    val retryDelayMs: Long = 0,
    cause: Throwable? = null,
) : Exception(message, cause)
