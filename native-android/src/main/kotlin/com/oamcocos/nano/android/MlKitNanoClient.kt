package com.oamcocos.nano.android

import android.graphics.Bitmap
import android.graphics.BitmapFactory
import com.google.mlkit.genai.common.DownloadStatus
import com.google.mlkit.genai.common.GenAiException
import com.google.mlkit.genai.prompt.GenerateContentRequest
import com.google.mlkit.genai.prompt.Generation
import com.google.mlkit.genai.prompt.GenerativeModel
import com.google.mlkit.genai.prompt.ImagePart
import com.google.mlkit.genai.prompt.PromptPrefix
import com.google.mlkit.genai.prompt.SystemInstruction
import com.google.mlkit.genai.prompt.TextPart
import com.google.mlkit.genai.prompt.generateContentRequest
import com.google.mlkit.genai.prompt.generationConfig
import com.google.mlkit.genai.prompt.modelConfig
import com.oamcocos.nano.core.NanoChunk
import com.oamcocos.nano.core.NanoClient
import com.oamcocos.nano.core.NanoDownloadEvent
import com.oamcocos.nano.core.NanoErrors
import com.oamcocos.nano.core.NanoFailure
import com.oamcocos.nano.core.NanoImage
import com.oamcocos.nano.core.NanoModelConfig
import com.oamcocos.nano.core.NanoRequest
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.catch
import kotlinx.coroutines.flow.map

/**
 * The thin ML Kit adapter (genai-prompt 1.0.0-beta4): translates NanoRequest into a
 * GenerateContentRequest and GenAiException into NanoFailure. Nothing else lives here.
 */
class MlKitNanoClient(private val model: GenerativeModel = Generation.getClient()) : NanoClient {

    companion object {
        /** A client for the selected model; no selection keeps `Generation.getClient()` (ML Kit's default model). */
        fun create(config: NanoModelConfig): MlKitNanoClient {
            if (config.preference == null && config.releaseStage == null) return MlKitNanoClient()
            val selected = modelConfig {
                // Release stage first: ML Kit derives the default preference from it.
                config.releaseStage?.let { releaseStage = it }
                config.preference?.let { preference = it }
            }
            return MlKitNanoClient(Generation.getClient(generationConfig { modelConfig = selected }))
        }
    }

    override suspend fun checkStatus(): Int = mlkit { model.checkStatus() }

    override fun download(): Flow<NanoDownloadEvent> = model.download()
        .map { status ->
            when (status) {
                is DownloadStatus.DownloadStarted -> NanoDownloadEvent.Started(status.bytesToDownload)
                is DownloadStatus.DownloadProgress -> NanoDownloadEvent.Progress(status.totalBytesDownloaded)
                is DownloadStatus.DownloadCompleted -> NanoDownloadEvent.Completed
                is DownloadStatus.DownloadFailed -> NanoDownloadEvent.Failed(toFailure(status.e))
            }
        }
        .catch { e -> throw translate(e) }

    override suspend fun warmup() = mlkit { model.warmup() }

    override suspend fun baseModelName(): String = mlkit { model.getBaseModelName() }

    override suspend fun tokenLimit(): Int = mlkit { model.getTokenLimit() }

    override suspend fun isSystemPromptAvailable(): Boolean = mlkit { model.isSystemPromptAvailable() }

    override suspend fun isCachingAvailable(): Boolean = mlkit { model.isCachingFeatureAvailable() }

    override suspend fun isThinkingAvailable(): Boolean = mlkit { model.isThinkingModeAvailable() }

    override suspend fun countTokens(request: NanoRequest): Int = mlkit { model.countTokens(toMlKit(request)).totalTokens }

    override fun generateStream(request: NanoRequest): Flow<NanoChunk> = model.generateContentStream(toMlKit(request))
        .map { response ->
            val candidate = response.candidates.firstOrNull()
            NanoChunk(candidate?.text ?: "", candidate?.finishReason)
        }
        .catch { e -> throw translate(e) }

    override fun close() = model.close()

    /**
     * Builder validation failures stay IllegalArgumentException (the host maps them to
     * invalid_request). An image goes first, as ML Kit's (image, text) builder puts it; the host
     * has already folded any prefix into the prompt (ML Kit takes no promptPrefix with an image).
     */
    private fun toMlKit(r: NanoRequest): GenerateContentRequest {
        val text = TextPart(r.prompt)
        val settings = settingsOf(r)
        val image = r.image ?: return generateContentRequest(text, settings)
        return generateContentRequest(ImagePart(decode(image)), text, settings)
    }

    /** The file as a Bitmap; bytes BitmapFactory cannot read are ML Kit's INVALID_INPUT_IMAGE. */
    private fun decode(image: NanoImage): Bitmap =
        BitmapFactory.decodeByteArray(image.bytes, 0, image.bytes.size)
            ?: throw NanoFailure(NanoErrors.INVALID_INPUT_IMAGE, "the ${image.mimeType} image could not be decoded")

    private fun settingsOf(r: NanoRequest): GenerateContentRequest.Builder.() -> Unit = {
        r.temperature?.let { temperature = it }
        r.topK?.let { topK = it }
        r.seed?.let { seed = it }
        r.maxOutputTokens?.let { maxOutputTokens = it }
        r.promptPrefix?.let { promptPrefix = PromptPrefix(it) }
        r.systemInstruction?.let { systemInstruction = SystemInstruction(it) }
        if (r.enableThinking) enableThinking = true
    }

    private suspend fun <T> mlkit(call: suspend () -> T): T = try {
        call()
    } catch (e: Throwable) {
        throw translate(e)
    }

    private fun translate(e: Throwable): Throwable {
        if (e is CancellationException || e is NanoFailure) return e
        var cause: Throwable? = e
        var depth = 0
        while (cause != null && depth < 8) {
            if (cause is GenAiException) return toFailure(cause)
            cause = cause.cause
            depth++
        }
        return e
    }

    private fun toFailure(e: GenAiException): NanoFailure =
        NanoFailure(e.errorCode, e.message ?: "GenAiException ${e.errorCode}", e.retryDelay.toMillis(), e)
}
