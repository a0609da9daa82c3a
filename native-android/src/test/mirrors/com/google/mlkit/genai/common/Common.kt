// COMPILE-ONLY MIRROR, never packaged: written by hand from the published API reference
// (ML Kit GenAI Prompt API 1.0.0-beta4, Cocos Creator 3.8 com.cocos.lib, Android SDK) so the
// module compiles on a plain JVM where Google Maven is unreachable. Only the members the module
// uses, with their published signatures; bodies throw. A Gradle build uses the real libraries.
package com.google.mlkit.genai.common

import java.time.Duration

annotation class FeatureStatus {
    companion object {
        const val UNAVAILABLE = 0
        const val DOWNLOADABLE = 1
        const val DOWNLOADING = 2
        const val AVAILABLE = 3
    }
}

sealed class DownloadStatus {
    data class DownloadStarted(val bytesToDownload: Long) : DownloadStatus()
    data class DownloadProgress(val totalBytesDownloaded: Long) : DownloadStatus()
    object DownloadCompleted : DownloadStatus()
    data class DownloadFailed(val e: GenAiException) : DownloadStatus()
}

open class GenAiException : Exception {
    constructor(message: String, cause: Throwable?, errorCode: Int) : super(message, cause) {
        this.errorCode = errorCode
        this.retryDelay = Duration.ZERO
    }
    constructor(message: String, cause: Throwable?, errorCode: Int, retryDelay: Duration) : super(message, cause) {
        this.errorCode = errorCode
        this.retryDelay = retryDelay
    }
    val errorCode: Int
    val retryDelay: Duration

    annotation class ErrorCode {
        companion object {
            const val UNKNOWN = 0
            const val REQUEST_PROCESSING_ERROR = 4
            const val CANCELLED = 7
            const val NOT_AVAILABLE = 8
            const val BUSY = 9
            const val RESPONSE_PROCESSING_ERROR = 11
            const val REQUEST_TOO_LARGE = 12
            const val RESPONSE_GENERATION_ERROR = 15
            const val NOT_SUPPORTED = 16
            const val PER_APP_BATTERY_USE_QUOTA_EXCEEDED = 27
            const val BACKGROUND_USE_BLOCKED = 30
            const val NOT_ENOUGH_DISK_SPACE = 501
            const val NEEDS_SYSTEM_UPDATE = 604
            const val REQUEST_TOO_SMALL = -100
            const val AICORE_INCOMPATIBLE = -101
            const val INVALID_INPUT_IMAGE = -102
            const val CACHE_PROCESSING_ERROR = -103
            const val STRUCTURED_OUTPUT_REQUEST_ERROR = -104
            const val STRUCTURED_OUTPUT_RESPONSE_ERROR = -105
            const val STRUCTURED_OUTPUT_MAX_TOKENS_ERROR = -106
            const val AUDIO_BUFFER_OVERFLOW = -107
        }
    }
}
