package com.oamcocos.nano.core

/**
 * Maps ML Kit GenAiException codes to the 12 wire codes, the unavailable reasons and a
 * message that says what happened. The table follows the seed library's mapping.
 */
object NanoErrors {
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
    /** Device-wide long-duration quota: internal, reported by ML Kit as BUSY, mapped in case it leaks. */
    const val PER_DEVICE_QUOTA_EXCEEDED = 28
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
    /**
     * genai-agent's AgentRunner: a turn needed more steps than the agent's maxTurns. Not a
     * Prompt API code; mapped in case it reaches us, as the TypeScript AgentRunner's own
     * (generation_failed: the request was valid, the model did not finish within its budget).
     */
    const val MAX_TURNS_EXCEEDED = -112

    private class Entry(val name: String, val code: AgentErrorCode, val text: String)

    private val table: Map<Int, Entry> = mapOf(
        UNKNOWN to Entry("UNKNOWN", AgentErrorCode.GENERATION_FAILED, "an unknown error occurred"),
        REQUEST_PROCESSING_ERROR to Entry("REQUEST_PROCESSING_ERROR", AgentErrorCode.GUARDRAIL_VIOLATION, "the request did not pass the safety check"),
        CANCELLED to Entry("CANCELLED", AgentErrorCode.CANCELLED, "the request was cancelled"),
        NOT_AVAILABLE to Entry("NOT_AVAILABLE", AgentErrorCode.MODEL_UNAVAILABLE, "the model is not available on this device yet"),
        BUSY to Entry("BUSY", AgentErrorCode.RATE_LIMITED, "the per-app inference quota is used up; retry later"),
        RESPONSE_PROCESSING_ERROR to Entry("RESPONSE_PROCESSING_ERROR", AgentErrorCode.GUARDRAIL_VIOLATION, "the response did not pass the safety check"),
        REQUEST_TOO_LARGE to Entry("REQUEST_TOO_LARGE", AgentErrorCode.CONTEXT_SIZE_EXCEEDED, "the prompt is too long for the on-device model"),
        RESPONSE_GENERATION_ERROR to Entry("RESPONSE_GENERATION_ERROR", AgentErrorCode.GUARDRAIL_VIOLATION, "the model could not generate an answer that passes the safety check"),
        NOT_SUPPORTED to Entry("NOT_SUPPORTED", AgentErrorCode.MODEL_UNAVAILABLE, "this feature is not supported on this device"),
        PER_APP_BATTERY_USE_QUOTA_EXCEEDED to Entry("PER_APP_BATTERY_USE_QUOTA_EXCEEDED", AgentErrorCode.RATE_LIMITED, "the app's daily battery quota for on-device AI is used up"),
        PER_DEVICE_QUOTA_EXCEEDED to Entry("PER_DEVICE_QUOTA_EXCEEDED", AgentErrorCode.RATE_LIMITED, "the device's long-duration quota for on-device AI is used up"),
        BACKGROUND_USE_BLOCKED to Entry("BACKGROUND_USE_BLOCKED", AgentErrorCode.RATE_LIMITED, "inference is only allowed while the app is in the foreground"),
        NOT_ENOUGH_DISK_SPACE to Entry("NOT_ENOUGH_DISK_SPACE", AgentErrorCode.MODEL_UNAVAILABLE, "not enough disk space for the model"),
        NEEDS_SYSTEM_UPDATE to Entry("NEEDS_SYSTEM_UPDATE", AgentErrorCode.MODEL_UNAVAILABLE, "the device needs a system update"),
        REQUEST_TOO_SMALL to Entry("REQUEST_TOO_SMALL", AgentErrorCode.INVALID_REQUEST, "the prompt is too short"),
        AICORE_INCOMPATIBLE to Entry("AICORE_INCOMPATIBLE", AgentErrorCode.MODEL_UNAVAILABLE, "AICore is missing or too old on this device"),
        INVALID_INPUT_IMAGE to Entry("INVALID_INPUT_IMAGE", AgentErrorCode.INVALID_REQUEST, "the input image is invalid"),
        CACHE_PROCESSING_ERROR to Entry("CACHE_PROCESSING_ERROR", AgentErrorCode.GENERATION_FAILED, "the prompt prefix cache failed"),
        STRUCTURED_OUTPUT_REQUEST_ERROR to Entry("STRUCTURED_OUTPUT_REQUEST_ERROR", AgentErrorCode.INVALID_SCHEMA, "the structured output class is invalid"),
        STRUCTURED_OUTPUT_RESPONSE_ERROR to Entry("STRUCTURED_OUTPUT_RESPONSE_ERROR", AgentErrorCode.GENERATION_FAILED, "the generated values do not match the schema"),
        STRUCTURED_OUTPUT_MAX_TOKENS_ERROR to Entry("STRUCTURED_OUTPUT_MAX_TOKENS_ERROR", AgentErrorCode.GENERATION_FAILED, "the structured output ran out of tokens"),
        AUDIO_BUFFER_OVERFLOW to Entry("AUDIO_BUFFER_OVERFLOW", AgentErrorCode.GENERATION_FAILED, "the audio input overflowed"),
        MAX_TURNS_EXCEEDED to Entry("MAX_TURNS_EXCEEDED", AgentErrorCode.GENERATION_FAILED, "the turn needed more steps than maxTurns allows"),
    )

    /** True for the codes the table knows (a test checks every ML Kit ErrorCode constant is one). */
    fun isKnown(mlkitCode: Int): Boolean = table.containsKey(mlkitCode)

    fun codeFor(mlkitCode: Int): AgentErrorCode = table[mlkitCode]?.code ?: AgentErrorCode.GENERATION_FAILED

    /** "Gemini Nano: <what happened> (ML Kit <NAME>, <code>)". */
    fun messageFor(mlkitCode: Int): String {
        val entry = table[mlkitCode]
        val text = entry?.text ?: "an unexpected error occurred"
        return "Gemini Nano: $text (ML Kit ${entry?.name ?: "code"}, $mlkitCode)"
    }

    /** The reason `availability` reports when checkStatus() itself fails. */
    fun unavailableReason(mlkitCode: Int): String = when (mlkitCode) {
        AICORE_INCOMPATIBLE -> "aicore_unavailable"
        NEEDS_SYSTEM_UPDATE -> "needs_system_update"
        NOT_ENOUGH_DISK_SPACE -> "not_enough_disk_space"
        NOT_AVAILABLE, NOT_SUPPORTED -> "model_not_ready"
        else -> "unknown"
    }

    /** The error JS receives; a positive retry delay becomes retryAfterMs. */
    fun toRpcError(failure: NanoFailure, forceCode: AgentErrorCode? = null): RpcError = RpcError(
        code = forceCode ?: codeFor(failure.mlkitCode),
        message = messageFor(failure.mlkitCode),
        mlkitCode = failure.mlkitCode,
        retryAfterMs = failure.retryDelayMs.takeIf { it > 0 },
    )

    /** Looks for the ML Kit failure up to 8 causes deep (ML Kit wraps it at times). */
    fun findFailure(error: Throwable?): NanoFailure? {
        var e = error
        var depth = 0
        while (e != null && depth < 8) {
            if (e is NanoFailure) return e
            e = e.cause
            depth++
        }
        return null
    }
}
