// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package com.google.mlkit.genai.prompt

import android.graphics.Bitmap
import android.net.Uri
import com.google.mlkit.genai.common.DownloadStatus
import kotlinx.coroutines.flow.Flow
import java.util.concurrent.ExecutorService

private fun mirror(): Nothing = throw UnsupportedOperationException("compile-only ML Kit mirror")

object Generation {
    fun getClient(): GenerativeModel = mirror()
    fun getClient(options: GenerationConfig): GenerativeModel = mirror()
}

class GenerationConfig private constructor() {
    val workerExecutor: ExecutorService? get() = mirror()
    val modelConfig: ModelConfig get() = mirror()

    class Builder {
        var workerExecutor: ExecutorService? = null
        var modelConfig: ModelConfig get() = mirror()
            set(@Suppress("UNUSED_PARAMETER") value) = mirror()
        fun build(): GenerationConfig = mirror()
    }

    companion object {
        fun builder(): Builder = mirror()
    }
}

fun generationConfig(init: GenerationConfig.Builder.() -> Unit): GenerationConfig = mirror()

class ModelConfig private constructor() {
    val releaseStage: Int get() = mirror()
    val preference: Int get() = mirror()

    class Builder {
        var releaseStage: Int = ModelReleaseStage.STABLE
        var preference: Int get() = mirror()
            set(@Suppress("UNUSED_PARAMETER") value) = mirror()
        fun build(): ModelConfig = mirror()
    }

    companion object {
        @JvmStatic fun builder(): Builder = mirror()
        @JvmStatic val DEFAULT: ModelConfig get() = mirror()
    }
}

fun modelConfig(init: ModelConfig.Builder.() -> Unit): ModelConfig = mirror()

annotation class ModelReleaseStage {
    companion object {
        const val STABLE = 0
        const val PREVIEW = 1
    }
}

annotation class ModelPreference {
    companion object {
        const val FAST = 1
        const val FULL = 2
    }
}

interface GenerativeModel {
    suspend fun checkStatus(): Int
    fun download(): Flow<DownloadStatus>
    suspend fun warmup()
    suspend fun getBaseModelName(): String
    suspend fun getTokenLimit(): Int
    suspend fun isCachingFeatureAvailable(): Boolean
    suspend fun isStructuredOutputFeatureAvailable(): Boolean
    suspend fun isSystemPromptAvailable(): Boolean
    suspend fun isThinkingModeAvailable(): Boolean
    suspend fun countTokens(request: GenerateContentRequest): CountTokensResponse
    suspend fun generateContent(request: GenerateContentRequest): GenerateContentResponse
    fun generateContentStream(request: GenerateContentRequest): Flow<GenerateContentResponse>
    suspend fun clearImplicitCaches()
    fun close()
}

sealed class Part
data class TextPart(val text: String) : Part()

/** One image of a request (ML Kit takes a single image per request; not with a promptPrefix). */
data class ImagePart(val bitmap: Bitmap) : Part() {
    /** Schemes android.resource, content, file; throws IOException/FileNotFoundException. */
    constructor(uri: Uri) : this(mirrorBitmap(uri))
    constructor(blob: ByteArray) : this(mirrorBitmap(blob))
    val width: Int get() = mirror()
    val height: Int get() = mirror()
}

private fun mirrorBitmap(@Suppress("UNUSED_PARAMETER") source: Any): Bitmap = mirror()

/** A multi-part turn (beta4: no role). */
class Content private constructor() {
    val parts: List<Part> get() = mirror()

    class Builder {
        fun addPart(@Suppress("UNUSED_PARAMETER") part: Part): Builder = mirror()
        fun parts(@Suppress("UNUSED_PARAMETER") vararg part: Part): Builder = mirror()
        fun text(@Suppress("UNUSED_PARAMETER") text: String): Builder = mirror()
        fun image(@Suppress("UNUSED_PARAMETER") bitmap: Bitmap): Builder = mirror()
        /** IllegalArgumentException "Parts cannot be empty". */
        fun build(): Content = mirror()
    }

    companion object {
        fun builder(): Builder = mirror()
    }
}

fun content(init: Content.Builder.() -> Unit): Content = mirror()
data class PromptPrefix(val text: String)
class SystemInstruction(val text: String)

class GenerateContentRequest private constructor() {
    val temperature: Float get() = mirror()
    val seed: Int get() = mirror()
    val topK: Int get() = mirror()
    val candidateCount: Int get() = mirror()
    val maxOutputTokens: Int get() = mirror()
    val promptPrefix: PromptPrefix? get() = mirror()
    val cachedContextName: String? get() = mirror()
    val systemInstruction: SystemInstruction? get() = mirror()
    val enableThinking: Boolean get() = mirror()
    val contents: List<Content> get() = mirror()
    @Deprecated("Use contents") val image: ImagePart? get() = mirror()
    @Deprecated("Use contents") val text: TextPart get() = mirror()

    class Builder(text: TextPart) {
        /** Image first, then text. */
        constructor(@Suppress("UNUSED_PARAMETER") image: ImagePart, text: TextPart) : this(text)
        var temperature: Float? = null
        var seed: Int? = null
        var topK: Int? = null
        var candidateCount: Int? = null
        var maxOutputTokens: Int? = null
        var promptPrefix: PromptPrefix? = null
        var cachedContextName: String? = null
        var systemInstruction: SystemInstruction? = null
        var enableThinking: Boolean = false
        fun build(): GenerateContentRequest = mirror()
    }
}

fun generateContentRequest(text: TextPart, init: GenerateContentRequest.Builder.() -> Unit): GenerateContentRequest = mirror()
fun generateContentRequest(image: ImagePart, text: TextPart, init: GenerateContentRequest.Builder.() -> Unit): GenerateContentRequest = mirror()

class GenerateContentResponse(val candidates: List<Candidate>, val thoughtProcess: List<Candidate>)

class Candidate(val text: String, val finishReason: Int?) {
    annotation class FinishReason {
        companion object {
            const val STOP = 0
            const val MAX_TOKENS = 1
            const val OTHER = -100
        }
    }
}

data class CountTokensResponse(val totalTokens: Int)
